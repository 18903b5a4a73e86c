import fc from 'fast-check';
import { callSoap, describeAnswer, soap, soapAnswerOf, soapProbe } from '../../harness/checks/probe.ts';
import {
  CheckFailure, closesShownToRelease, credentialsOf, declaredCertAccounts, expectEqual, noSessionSlot, expectThat, failOn, inClause, Inconclusive, obtainSoapToken, PrerequisiteFailed, ruleProperty, ruleTest,
  keptSlotSeen, recordKeptSlot, registerPassword, sessionClose, sessionCreate, sessionLedger, soapAccount, soapCall, tokenCreate, tokensThatMayHoldSlots, type CheckContext, type OpenSession, type SoapExchange,
} from '../../harness/checks/index.ts';
import { closeAll, createInReleasedSlot, createVerdict } from './support/sessions.ts';
import { issuedToken, stokProblems } from '../../harness/judges/index.ts';
import type { Environment } from '../../harness/catalog/index.ts';
import type { Account } from '../../harness/targets/index.ts';
import { sessionCreateRQBody, tokenCreateRQBody, type RequestSecurity } from '../../harness/soap/index.ts';
import { auditExchanges } from './support/audits.ts';
import { freshAccountLike } from '../../harness/checks/fresh-account.ts';
import { stringArbitrary, stringMatchingArbitrary } from '../../harness/checks/string-arbitrary.ts';

/**
 * The answer to a token-creating request with valid credentials must be a success for STOK-01/02 to judge its shape:
 * no SOAP envelope is SOAP-02's to judge, a refused account CRED-03's or XPROTO-03's, a full pool SESS-02/04's (or,
 * where the run opened no session of the account, nobody's: see noSessionSlot), and
 * any other fault says nothing.
 */
function expectSuccess(ctx: CheckContext, x: SoapExchange, action: 'TokenCreateRQ' | 'SessionCreateRQ'): void {
  const answer = soapAnswerOf(ctx, x);
  switch (answer.kind) {
    case 'success': return;
    case 'not-soap': throw new PrerequisiteFailed(`${action} got no SOAP envelope (${describeAnswer(soap(answer))})`, ['SOAP-02']);
    case 'refused': throw new PrerequisiteFailed(`${action} of the configured account was refused (${answer.code})`, ['CRED-03', 'XPROTO-03']);
    case 'pool-full': throw noSessionSlot('cert', soapAccount(ctx, 'cert').pcc, `${action} of the configured account in CERT`, answer.code);
    default: throw new Inconclusive(`${action} with the configured account's credentials got ${describeAnswer(soap(answer))}`);
  }
}

/** STOK-01 or STOK-02 on a successful answer (harness/judges: the same judge as observe's): its first problem fails the check. */
function expectTokenAnswer(x: SoapExchange, action: 'TokenCreateRQ' | 'SessionCreateRQ'): void {
  failOn(x.envelope && stokProblems(action, x.envelope, { conversationId: x.request.conversationId, messageId: x.request.messageId })[0]);
}

ruleTest('STOK-01', 'TokenCreateRQ with valid credentials gets TokenCreateRS with a sessionless token, ConversationId and RefToMessageId', async (ctx) => {
  const before = await ctx.target.control?.openSessions();
  const x = await tokenCreate(ctx, 'cert');
  expectSuccess(ctx, x, 'TokenCreateRQ');
  expectTokenAnswer(x, 'TokenCreateRQ');
  if (ctx.target.control) {
    // Used once (a service may allocate the session at the token's first call), then the sessions counted again.
    const token = issuedToken(x.envelope);
    if (token) await callSoap(ctx, 'cert', token).catch(() => undefined);
    const after = await ctx.target.control.openSessions();
    await inClause('STOK-01.sessionless', () => expectEqual('open sessions after TokenCreateRQ (a sessionless token allocates none)', after, before));
  } else {
    await sessionlessFromOutside(ctx);
  }
}, { clauses: ['STOK-01.action', 'STOK-01.token', 'STOK-01.sessionless', 'STOK-01.conversation-id', 'STOK-01.ref-to-message-id'] });

/**
 * "Sessionless token: no server-side session is allocated", seen from outside the service through the caller's pool
 * (its declared size, opt-in: it fills the pool). By difference: with the pool full of the check's sessions, one is
 * closed and SessionCreateRQ gets the slot back (closes release slots); another is closed, a TokenCreateRQ is answered,
 * and SessionCreateRQ is sent again: refused as full, the token took the slot. A pool full before the check holds any
 * session is the run's own record's to explain (see {@link recordSaysTokensHoldSlots}); where it cannot, the other
 * accounts the config declares (in CERT, then PROD's) are tried the same way, each in its own pool.
 */
async function sessionlessFromOutside(ctx: CheckContext): Promise<void> {
  const clause = 'STOK-01.sessionless';
  const pool = ctx.target.sessionPoolSize;
  if (pool === undefined || !ctx.target.allowOptIn) {
    ctx.unchecked(clause, 'whether a session was allocated shows only in the caller\'s pool: declare sessionPoolSize in the target config and run with --allow-opt-in (the check then fills the pool)');
    return;
  }
  const prod = ctx.target.environments.prod && ctx.target.accounts.prod;
  const routes: { account: Account; env: Environment; what: string }[] = [
    { account: soapAccount(ctx, 'cert'), env: 'cert', what: 'the CERT account' },
    ...declaredCertAccounts(ctx).map((r) => ({ ...r, env: 'cert' as const })),
    ...(prod ? [{ account: prod, env: 'prod' as const, what: 'the PROD account' }] : []),
  ];
  const tried: string[] = [];
  for (const route of routes) {
    registerPassword(route.account.password);
    const outcome = await tokenInFreedSlot(ctx, route.account, route.env, pool, clause);
    if (outcome === 'checked') return;
    tried.push(`${route.what}: ${outcome.why}`);
    // The other accounts' pools would only spend the run's session budget, which the pool checks after this one need
    // (a budget must not decide their verdicts).
    if (route === routes[0] && outcome.everyPool) break;
  }
  ctx.unchecked(clause, `no pool could be filled and a slot freed in it (${tried.join('; ')})`);
}

/**
 * Why a pool could not show it; `everyPool` when the other accounts' pools would answer the same: the main account's
 * pool took more sessions than the config declares (SESS-04's to judge, or a size declared wrong), or its full pool
 * was answered with no SOAP envelope (a gateway's page, SOAP-02's to judge, which fronts every account).
 */
interface NotShown {
  readonly why: string;
  readonly everyPool?: boolean;
}

/**
 * The difference in one account's pool. `checked` when the token left the slot alone (a failure is thrown); otherwise
 * why the pool could not show it.
 */
async function tokenInFreedSlot(ctx: CheckContext, account: Account, env: Environment, pool: number, clause: string): Promise<'checked' | NotShown> {
  // The token is used once before the SessionCreateRQ (a service may allocate its session at the first call): with the
  // sessionless probe, found before the pool is filled (finding it may take a TokenCreateRQ token of its own).
  const probe = await soapProbe(ctx, 'soapSessionless').catch(() => undefined);
  const held: OpenSession[] = [];
  const create = async (what: string) => {
    const x = await createInReleasedSlot(ctx, account, what, env);
    return { x, verdict: x.session ? 'opened' as const : createVerdict(ctx, x, what) };
  };
  try {
    let refused: SoapExchange | undefined;
    while (held.length <= pool) {
      const x = await sessionCreate(ctx, env, account);
      if (x.session) {
        held.push(x.session);
        continue;
      }
      const answer = soapAnswerOf(ctx, x);
      if (answer.kind === 'not-soap') return { why: `SessionCreateRQ got no SOAP envelope (${describeAnswer(soap(answer))})`, everyPool: true };
      if (answer.kind !== 'pool-full' && answer.kind !== 'other-fault') return { why: `SessionCreateRQ got ${describeAnswer(soap(answer))}` };
      refused = x;
      break;
    }
    if (!refused) return { why: `the pool took ${held.length} sessions, more than the ${pool} declared`, everyPool: true };
    if (held.length === 0) {
      recordSaysTokensHoldSlots(ctx, env, account.pcc, pool, refused, clause);
      return { why: 'the pool was full before the check held a session of it, and the run\'s record does not say what holds the slots' };
    }
    // The control: a close followed by SessionCreateRQ alone gets the slot back.
    if (!(await sessionClose(ctx, held.pop()!)).confirmed) return { why: 'the service did not confirm the close of a session of the full pool (SESS-02\'s to judge)' };
    const control = await create('SessionCreateRQ after closing a session of the full pool');
    if (control.verdict === 'full') {
      recordKeptSlot(`STOK-01's check closed one of its ${held.length + 1} sessions of the full pool of the account ${account.epr} in ${env.toUpperCase()}, the service confirming it, and SessionCreateRQ was still refused as full`);
      return { why: 'closing a session of the full pool did not free a slot (SESS-02\'s and SESS-04\'s to judge)' };
    }
    held.push(control.x.session!);
    // The same with a TokenCreateRQ between the close and SessionCreateRQ.
    if (!(await sessionClose(ctx, held.pop()!)).confirmed) return { why: 'the service did not confirm the close of a session of the full pool (SESS-02\'s to judge)' };
    const token = await tokenCreate(ctx, env, account);
    const value = issuedToken(token.envelope);
    if (soapAnswerOf(ctx, token).kind !== 'success' || !value) return { why: `TokenCreateRQ got ${describeAnswer(soap(soapAnswerOf(ctx, token)))}` };
    const used = probe ? (await callSoap(ctx, env, value, { probe })).answer.kind === 'success' : false;
    const again = await create('SessionCreateRQ after a close and a TokenCreateRQ');
    if (again.verdict === 'full') {
      throw new CheckFailure(`SessionCreateRQ was refused as the pool is full after a session was closed and a TokenCreateRQ answered${used ? ' (its token then served a call)' : ''}, when the same close followed by SessionCreateRQ alone got a session: the sessionless token took the slot the close released`, {
        expected: 'a session in the released slot (a sessionless token allocates no session)', actual: describeAnswer(soap(soapAnswerOf(ctx, again.x))), clause,
      });
    }
    held.push(again.x.session!);
    // A token that took no slot at its creation but was never used says nothing of a session allocated at its first
    // call: the next route may use one.
    if (!used) return { why: `its TokenCreateRQ token took no slot, but could not be used before the SessionCreateRQ (${probe ? 'the sessionless probe refused it' : 'no sessionless probe was found'}), and a service may allocate the session at a token's first call` };
    return 'checked';
  } finally {
    await closeAll(ctx, held);
  }
}

/**
 * A pool full before the check holds a session of it, read on the run's own record: every session the run opened of
 * the account is confirmed closed, closes release their slots (a session was granted beside as many closed ones as the
 * pool holds, of each kind the run closed: sessions that had served a request, and sessions closed unused, which a
 * service may treat apart), and the run has obtained as many TokenCreateRQ tokens as the pool holds, beside which no
 * session was ever granted: the tokens hold the slots. (Sessions of another application holding the whole pool since would
 * explain it too, as they would the pool checks' record-based verdict: the same evidence, and the pool was not theirs
 * all along. A record short of that leaves the other accounts to try.)
 */
function recordSaysTokensHoldSlots(ctx: CheckContext, env: Environment, pcc: string, pool: number, refused: SoapExchange, clause: string): void {
  const mine = sessionLedger(env, pcc);
  const accounted = mine.opened > 0 && mine.opened === mine.closed + mine.open && mine.hidden === 0 && mine.open === 0;
  // Closes of used sessions shown to release their slots does not show it of closes of unused ones, nor the reverse;
  // the same of used and unused tokens.
  const closedUnused = mine.closed - mine.closedUsed;
  // A close seen to keep its slot (SESS-02's deviation) may be what fills the pool.
  if (!accounted || keptSlotSeen() !== undefined || !closesShownToRelease(mine, pool) || tokensThatMayHoldSlots(mine, pool) < pool) return;
  const kinds = [mine.closedUsed > 0 && 'closed after serving a request', closedUnused > 0 && 'closed unused'].filter(Boolean).join(' and of sessions ');
  throw new CheckFailure(`SessionCreateRQ was refused as the pool is full although the harness holds no session of the account and the service confirmed all ${mine.closed} it opened closed; a session was granted beside as many closes as the pool holds (${pool}) of sessions ${kinds}, so closes release their slots, and the run obtained ${mine.tokens} TokenCreateRQ token(s), beside which no session was granted: they hold the slots`, {
    expected: 'no slot held by a sessionless token', actual: describeAnswer(soap(soapAnswerOf(ctx, refused))), clause,
  });
}

ruleTest('REST-04', 'three TokenCreateRQ calls yield three distinct tokens', async (ctx) => {
  // "One call to an authentication API yields one token": TokenCreateRQ is one (the REST endpoint's calls are the
  // property's of suites/service/token-endpoint.test.ts; every token a file obtained is audited: support/audits.ts).
  const tokens: string[] = [];
  for (let i = 0; i < 3; i++) {
    const x = await tokenCreate(ctx, 'cert');
    expectSuccess(ctx, x, 'TokenCreateRQ');
    const token = issuedToken(x.envelope);
    if (token === undefined) throw new PrerequisiteFailed(`TokenCreateRQ ${i + 1} of 3 gave no token`, ['STOK-01']);
    tokens.push(token);
  }
  expectEqual('number of distinct tokens from 3 TokenCreateRQ calls', new Set(tokens).size, 3);
}, { clauses: ['REST-04.distinct'] });

ruleTest('STOK-02', 'SessionCreateRQ with valid credentials gets SessionCreateRS with a session token and ConversationId echoed', async (ctx) => {
  let x = await sessionCreate(ctx, 'cert');
  // Another route: the configured account's pool is full (of what another rule's deviation left in it), and the target
  // can make accounts (the simulator): a fresh one with the same PCC asks in an empty pool.
  const control = ctx.target.control;
  if (!x.session && control && soapAnswerOf(ctx, x).kind === 'pool-full') {
    x = await sessionCreate(ctx, 'cert', await freshAccountLike(control, 'cert', soapAccount(ctx, 'cert'), 'pool'));
    ctx.note('the configured account\'s pool was full: a fresh account of the simulator with the same PCC asked instead');
  }
  try {
    expectSuccess(ctx, x, 'SessionCreateRQ');
    expectTokenAnswer(x, 'SessionCreateRQ');
  } finally {
    if (x.session) await sessionClose(ctx, x.session);
  }
}, { clauses: ['STOK-02.action', 'STOK-02.token', 'STOK-02.conversation-id'] });

type Wrong = { readonly label: string; readonly security: (good: Extract<RequestSecurity, { kind: 'usernameToken' }>) => RequestSecurity };

const WRONG_PASSWORD: Wrong = { label: 'a wrong password', security: (g) => ({ ...g, password: `${g.password}x` }) };
const BINARY_INSTEAD: Wrong = { label: 'a BinarySecurityToken instead of a UsernameToken', security: () => ({ kind: 'binarySecurityToken', token: 'not-a-token' }) };

/** The fixed wrong credentials: each is tried on both actions whatever the seed (the property's examples). */
const FIXED_WRONG: readonly Wrong[] = [
  WRONG_PASSWORD,
  { label: 'an empty password', security: (g) => ({ ...g, password: '' }) },
  { label: 'no UsernameToken (empty Security header)', security: () => ({ kind: 'empty' }) },
  { label: 'no Security header', security: () => ({ kind: 'none' }) },
  BINARY_INSTEAD,
];

const wrongCredentials: fc.Arbitrary<Wrong> = fc.oneof(
  stringArbitrary({ minLength: 1, maxLength: 16 }).map((p): Wrong => ({ label: 'a wrong password', security: (g) => ({ ...g, password: g.password === p ? `${p}x` : p }) })),
  stringMatchingArbitrary(/^[0-9A-Z]{3,8}$/).map((u): Wrong => ({ label: 'a wrong Username (EPR)', security: (g) => ({ ...g, username: g.username === u ? `${u}9` : u }) })),
  // Not a wrong Organization (PCC): "with a wrong PCC the agency-specific APIs are not accessible" lets a service issue
  // a token for it (and refuse the agency's APIs, ACCESS-02's to judge), so it is no clearly wrong credential.
  fc.constantFrom(...FIXED_WRONG),
);

const controls = new WeakMap<CheckContext, Promise<string>>();

ruleProperty(
  'STOK-03',
  'a token-creating request with wrong or missing UsernameToken credentials gets a SOAP fault and no token',
  fc.record({ wrong: wrongCredentials, action: fc.constantFrom('TokenCreateRQ', 'SessionCreateRQ') }),
  async (ctx, { wrong, action }) => {
    // The control: the right credentials do obtain a token, so a fault for wrong ones is about them.
    if (!controls.has(ctx)) controls.set(ctx, obtainSoapToken(ctx, 'cert'));
    await controls.get(ctx);
    const account = soapAccount(ctx, 'cert');
    const good = credentialsOf(account) as Extract<RequestSecurity, { kind: 'usernameToken' }>;
    const body = action === 'TokenCreateRQ' ? tokenCreateRQBody() : sessionCreateRQBody({ pseudoCityCode: account.pcc });
    const security = wrong.security(good);
    const x = await soapCall(ctx, 'cert', { action, security, body, cpaId: account.pcc });
    // A token the request itself carried, echoed back in the fault's header (as the public service does), is not one
    // the answer issued: only a token the request did not send counts.
    const token = issuedToken(x.envelope, security.kind === 'binarySecurityToken' ? [security.token] : []);
    if (action === 'SessionCreateRQ' && token && !x.envelope?.fault) await sessionClose(ctx, { env: 'cert', token, conversationId: x.request.conversationId, cpaId: account.pcc });
    const answer = soapAnswerOf(ctx, x);
    if (answer.kind === 'busy') throw new Inconclusive(`${action} with ${wrong.label} got ${describeAnswer(soap(answer))}`);
    if (answer.kind === 'success' || answer.kind === 'not-soap') {
      throw new CheckFailure(`${action} with ${wrong.label} was not refused with a SOAP fault`, { expected: 'a SOAP fault (publicly seen: Client.AuthenticationFailed)', actual: describeAnswer(soap(answer)) });
    }
    expectThat(!token, `the fault for ${action} with ${wrong.label} carries a token`, { expected: 'no BinarySecurityToken', actual: 'a token' });
  },
  {
    numRuns: 20,
    clauses: ['STOK-03.refused', 'STOK-03.no-token'],
    // Tried first whatever the seed, on both token-creating actions: every fixed wrong credential — a wrong password, an
    // empty one, no UsernameToken, no Security header, a BinarySecurityToken in place of the UsernameToken (the public
    // service echoes it in the fault's header). A service that accepts one of them fails on every seed.
    examples: (['TokenCreateRQ', 'SessionCreateRQ'] as const).flatMap((action) => FIXED_WRONG.map((wrong) => ({ action, wrong }))),
  },
);

auditExchanges('SOAP token checks');
