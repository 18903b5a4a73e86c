import fc from 'fast-check';
import {
  CheckFailure, expectEqual, expectThat, isFault, openSession, ping, registerSecret, ruleProperty, ruleTest,
  sessionClose, sessionCreate, type CheckContext, type OpenSession,
} from '../../harness/checks/index.ts';
import { DEFAULT_REST_DOMAIN, DEFAULT_SOAP_DOMAIN, limits } from '../../harness/spec/index.ts';
import type { Account } from '../../harness/targets/index.ts';
import { expectInvalidSecurityToken } from './support/soap-expect.ts';

const TIMEOUT = limits.defaultSessionTimeoutSeconds;

ruleTest('SESS-01', 'a ping shortly before the inactivity timeout lets a later call succeed past the original deadline', async (ctx) => {
  const control = ctx.target.control!;
  const timeout = ctx.target.sessionTimeoutSeconds;
  const session = await openSession(ctx, 'cert');
  try {
    await control.advanceClock(timeout - 30);
    const kept = await ping(ctx, 'cert', session.token, session.conversationId);
    expectThat(!isFault(kept), `a ping ${timeout - 30} s after SessionCreateRQ was refused`, { expected: 'OTA_PingRS', actual: kept.envelope?.fault?.faultcode });
    await control.advanceClock(timeout - 30);
    const later = await ping(ctx, 'cert', session.token, session.conversationId);
    expectThat(!isFault(later), `a call ${2 * (timeout - 30)} s after SessionCreateRQ (past the original deadline, ${timeout - 30} s after the last ping) was refused`, {
      expected: 'the session kept open by the ping',
      actual: later.envelope?.fault?.faultcode,
    });
  } finally {
    await sessionClose(ctx, session);
  }
});

ruleTest('SESS-02', 'after SessionCloseRQ the session token is refused with Client.InvalidSecurityToken', async (ctx) => {
  const session = await openSession(ctx, 'cert');
  const closed = await sessionClose(ctx, session);
  expectThat(!isFault(closed), 'SessionCloseRQ with ConversationId, CPAId and the token was refused', { expected: 'SessionCloseRS', actual: closed.envelope?.fault?.faultcode });
  const after = await ping(ctx, 'cert', session.token, session.conversationId);
  expectInvalidSecurityToken(after, session.token, 'a ping with the token of a closed session');
});

/** Opens sessions until the pool refuses one (at most `limit`). Returns the open ones and the refusal. */
async function fillPool(ctx: CheckContext, account: Account, limit: number): Promise<{ sessions: OpenSession[]; refusal: string | undefined }> {
  const sessions: OpenSession[] = [];
  for (let i = 0; i <= limit; i++) {
    const x = await sessionCreate(ctx, 'cert', account);
    if (!x.session) return { sessions, refusal: x.envelope?.fault?.faultcode ?? `${x.response.status}` };
    sessions.push(x.session);
  }
  return { sessions, refusal: undefined };
}

function poolSize(ctx: CheckContext): number {
  const size = ctx.target.sessionPoolSize;
  if (!size) return ctx.notApplicable('the target config does not give sessionPoolSize');
  return size;
}

ruleTest('SESS-02', 'closing a session releases its pool slot', async (ctx) => {
  ctx.requireOptIn('filling the session pool');
  const account = ctx.target.accounts.cert!;
  const size = poolSize(ctx);
  const { sessions, refusal } = await fillPool(ctx, account, size);
  try {
    expectThat(refusal !== undefined, `the pool took more than ${size} sessions (see SESS-04)`, { expected: `a refusal after ${size}`, actual: `${sessions.length} open` });
    await sessionClose(ctx, sessions.pop()!);
    const again = await sessionCreate(ctx, 'cert', account);
    if (again.session) sessions.push(again.session);
    expectThat(again.session !== undefined, 'SessionCreateRQ was refused after a session of the full pool was closed', {
      expected: 'a new session in the released slot',
      actual: again.envelope?.fault?.faultcode,
    });
  } finally {
    for (const s of sessions) await sessionClose(ctx, s);
  }
});

ruleProperty(
  'SESS-03',
  'with no request for the account\'s inactivity timeout, the session expires and its token is refused',
  fc.record({ timeout: fc.integer({ min: 60, max: 3_600 }), slack: fc.integer({ min: 1, max: 600 }) }),
  async (ctx, { timeout, slack }) => {
    const control = ctx.target.control!;
    const account: Account = { epr: `T${timeout}S${slack}`, pcc: 'TMO1', password: `pw-${timeout}-${slack}-secret`, restDomain: DEFAULT_REST_DOMAIN, soapDomain: DEFAULT_SOAP_DOMAIN };
    registerSecret(account.password);
    await control.addAccount('cert', { ...account, sessionTimeoutSeconds: timeout });
    const session = await openSession(ctx, 'cert', account);
    await control.advanceClock(timeout + slack);
    const x = await ping(ctx, 'cert', session.token, session.conversationId);
    expectInvalidSecurityToken(x, session.token, `a ping ${timeout + slack} s after the last request (timeout ${timeout} s)`);
    await sessionClose(ctx, session);
  },
  { numRuns: 8 },
);

ruleTest('SESS-03', 'with the default timeout (15 minutes), an idle session expires', async (ctx) => {
  const control = ctx.target.control!;
  const session = await openSession(ctx, 'cert');
  await control.advanceClock(TIMEOUT - 1);
  const alive = await ping(ctx, 'cert', session.token, session.conversationId);
  expectThat(!isFault(alive), `the session was refused ${TIMEOUT - 1} s after its last request`, { expected: 'OTA_PingRS', actual: alive.envelope?.fault?.faultcode });
  await control.advanceClock(TIMEOUT + 1);
  const expired = await ping(ctx, 'cert', session.token, session.conversationId);
  expectInvalidSecurityToken(expired, session.token, `a ping ${TIMEOUT + 1} s after the last request`);
  await sessionClose(ctx, session);
});

ruleTest('SESS-04', 'with the pool full, SessionCreateRQ is refused; closing a session or its timeout frees a slot', async (ctx) => {
  const account = ctx.target.accounts.cert!;
  const size = poolSize(ctx);
  const { sessions, refusal } = await fillPool(ctx, account, size);
  try {
    expectThat(refusal !== undefined, `SessionCreateRQ number ${size + 1} was accepted with a pool of ${size}`, { expected: 'a refusal (publicly seen: Client.ReachedTALimit)', actual: `${sessions.length} sessions open` });
    expectEqual('sessions open when the pool refused', sessions.length, size);
    await sessionClose(ctx, sessions.shift()!);
    const afterClose = await sessionCreate(ctx, 'cert', account);
    expectThat(afterClose.session !== undefined, 'closing a session did not free a slot', { expected: 'a new session', actual: afterClose.envelope?.fault?.faultcode });
    sessions.push(afterClose.session!);
    if (ctx.target.control) {
      await ctx.target.control.advanceClock(ctx.target.sessionTimeoutSeconds + 1);
      const afterTimeout = await sessionCreate(ctx, 'cert', account);
      if (afterTimeout.session) sessions.push(afterTimeout.session);
      expectThat(afterTimeout.session !== undefined, 'sessions that timed out did not free their slots', { expected: 'a new session', actual: afterTimeout.envelope?.fault?.faultcode });
    }
  } finally {
    for (const s of sessions) await sessionClose(ctx, s);
  }
});

// ---- the session lifecycle as a model -------------------------------------------------------------------------

interface ModelSession {
  state: 'open' | 'closed';
  lastUse: number;
}

interface Model {
  now: number;
  readonly timeout: number;
  readonly poolSize: number;
  readonly sessions: ModelSession[];
}

interface Real {
  readonly ctx: CheckContext;
  readonly account: Account;
  readonly sessions: (OpenSession | undefined)[];
}

/** The session a command names (by index, modulo the sessions created so far): model side and real side. */
function pick(m: Model, r: Real, index: number): { s: ModelSession; session: OpenSession | undefined } {
  const i = index % m.sessions.length;
  return { s: m.sessions[i]!, session: r.sessions[i] };
}

const live = (m: Model, s: ModelSession) => s.state === 'open' && m.now - s.lastUse < m.timeout;
const slotsInUse = (m: Model) => m.sessions.filter((s) => live(m, s)).length;

function fail(step: string, expected: string, actual: string | undefined): never {
  throw new CheckFailure(`the service left the session state table at: ${step}`, { expected, actual });
}

class Create implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(m: Model, r: Real) {
    const x = await sessionCreate(r.ctx, 'cert', r.account);
    const full = slotsInUse(m) >= m.poolSize;
    if (full) {
      if (x.session) fail(this.toString(), `a refusal: ${m.poolSize} of ${m.poolSize} sessions are open`, 'a new session');
      r.sessions.push(undefined);
      m.sessions.push({ state: 'closed', lastUse: m.now });
      return;
    }
    if (!x.session) fail(this.toString(), 'a new session', x.envelope?.fault?.faultcode ?? `${x.response.status}`);
    r.sessions.push(x.session);
    m.sessions.push({ state: 'open', lastUse: m.now });
  }
  toString = () => 'create';
}

class Call implements fc.AsyncCommand<Model, Real> {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.sessions.length > 0;
  async run(m: Model, r: Real) {
    const { s, session } = pick(m, r, this.index);
    if (!session) return;
    const x = await ping(r.ctx, 'cert', session.token, session.conversationId);
    if (live(m, s)) {
      if (isFault(x)) fail(this.toString(), 'OTA_PingRS: the session is open', x.envelope?.fault?.faultcode);
      s.lastUse = m.now;
    } else {
      if (!isFault(x)) fail(this.toString(), `Client.InvalidSecurityToken: the session is ${s.state === 'closed' ? 'closed' : 'expired'}`, 'OTA_PingRS');
      expectInvalidSecurityToken(x, session.token, this.toString());
    }
  }
  toString = () => `call(#${this.index})`;
}

class Close implements fc.AsyncCommand<Model, Real> {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.sessions.length > 0;
  async run(m: Model, r: Real) {
    const { s, session } = pick(m, r, this.index);
    if (!session) return;
    const x = await sessionClose(r.ctx, session);
    if (live(m, s)) {
      if (isFault(x)) fail(this.toString(), 'SessionCloseRS: the session is open', x.envelope?.fault?.faultcode);
    } else if (!isFault(x)) {
      fail(this.toString(), `Client.InvalidSecurityToken: the session is already ${s.state === 'closed' ? 'closed' : 'expired'}`, 'SessionCloseRS');
    }
    s.state = 'closed';
  }
  toString = () => `close(#${this.index})`;
}

class Advance implements fc.AsyncCommand<Model, Real> {
  constructor(readonly seconds: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    await r.ctx.target.control!.advanceClock(this.seconds);
    m.now += this.seconds;
  }
  toString = () => `advance(${this.seconds}s)`;
}

const TIMEOUT_MODEL = 600;
const POOL_MODEL = 3;
const commands = [
  fc.constant(new Create()),
  fc.nat(9).map((i) => new Call(i)),
  fc.nat(9).map((i) => new Close(i)),
  fc.oneof(fc.integer({ min: 1, max: TIMEOUT_MODEL - 1 }), fc.integer({ min: TIMEOUT_MODEL - 5, max: TIMEOUT_MODEL + 5 }), fc.constant(TIMEOUT_MODEL * 2)).map((s) => new Advance(s)),
];

let modelRun = 0;

ruleProperty(
  ['SESS-01', 'SESS-02', 'SESS-03', 'SESS-04'],
  'random sequences of create, call, close and clock moves follow the session state table',
  fc.commands(commands, { maxCommands: 25 }),
  async (ctx, cmds) => {
    const control = ctx.target.control!;
    modelRun++;
    const account: Account = { epr: `MODEL${modelRun}`, pcc: 'MDL1', password: `model-${modelRun}-secret`, restDomain: DEFAULT_REST_DOMAIN, soapDomain: DEFAULT_SOAP_DOMAIN };
    registerSecret(account.password);
    await control.addAccount('cert', { ...account, sessionTimeoutSeconds: TIMEOUT_MODEL, poolSize: POOL_MODEL });
    const real: Real = { ctx, account, sessions: [] };
    const model: Model = { now: 0, timeout: TIMEOUT_MODEL, poolSize: POOL_MODEL, sessions: [] };
    try {
      await fc.asyncModelRun(() => ({ model, real }), cmds);
    } finally {
      for (const [i, s] of real.sessions.entries()) if (s && model.sessions[i]?.state === 'open') await sessionClose(ctx, s).catch(() => undefined);
    }
  },
  { numRuns: 15 },
);

