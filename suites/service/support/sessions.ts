import { onNewRun } from '../../../harness/run-scope.ts';
import { callSessionProbe, callSoap, describeAnswer, inconclusiveAnswer, soap, soapAnswerOf, type SoapProbeResult } from '../../../harness/checks/probe.ts';
import {
  acknowledgedCloses, CheckFailure, closeRequest, Inconclusive, openSession, PrerequisiteFailed, registerPassword, sessionClose, sessionCreate, sessionLedger, keptSlotSeen, tokensThatMayHoldSlots, type CheckContext, type OpenSession, type SoapExchange,
} from '../../../harness/checks/index.ts';
import type { SoapAnswer } from '../../../harness/classify/index.ts';
import { DEFAULT_REST_DOMAIN, DEFAULT_SOAP_DOMAIN, type Environment } from '../../../harness/catalog/index.ts';
import { releasePauses, type Account } from '../../../harness/targets/index.ts';

/** The account a session check works with, its pool size and inactivity timeout. */
export interface SessionAccount {
  readonly account: Account;
  readonly poolSize: number | undefined;
  readonly timeoutSeconds: number;
  /** A fresh account (the simulator), whose pool nobody else uses. */
  readonly fresh: boolean;
}

let accounts = 0;
onNewRun(() => (accounts = 0));

/**
 * On a target that can create accounts (the simulator), a fresh one with the given pool and timeout, so that no other
 * check's sessions are in its pool; on a live target, the configured account with its declared pool and timeout.
 */
export async function sessionAccount(ctx: CheckContext, wanted: { poolSize?: number; timeoutSeconds?: number } = {}): Promise<SessionAccount> {
  const control = ctx.target.control;
  const main = ctx.target.accounts.cert;
  if (!control) {
    if (!main) return ctx.notApplicable('the target has no CERT account configured');
    return { account: main, poolSize: ctx.target.sessionPoolSize, timeoutSeconds: ctx.target.sessionTimeoutSeconds, fresh: false };
  }
  accounts++;
  const account: Account = { epr: `SESS${process.pid}X${accounts}`, pcc: 'SES1', password: `sessions-${accounts}-secret`, restDomain: DEFAULT_REST_DOMAIN, soapDomain: DEFAULT_SOAP_DOMAIN };
  registerPassword(account.password);
  const poolSize = wanted.poolSize ?? ctx.target.sessionPoolSize ?? 4;
  const timeoutSeconds = wanted.timeoutSeconds ?? ctx.target.sessionTimeoutSeconds;
  await control.addAccount('cert', { ...account, poolSize, sessionTimeoutSeconds: timeoutSeconds });
  return { account, poolSize, timeoutSeconds, fresh: true };
}

/** A request with the session token: the session probe (the Refresh Session API) unless another action is given. */
export function callInSession(ctx: CheckContext, session: OpenSession, action?: string): Promise<SoapProbeResult> {
  if (action === undefined) return callSessionProbe(ctx, session.env, session.token, session.conversationId);
  return callSoap(ctx, session.env, session.token, { probe: { action }, conversationId: session.conversationId });
}

/**
 * What an answer to a request with a session token says about the session, when the same request worked with it
 * before: accepted, or refused — any fault but a busy or pool one (the faultcode is ERR-04's to judge). A busy fault,
 * or no SOAP answer, says nothing.
 */
export function sessionVerdict(answer: SoapAnswer, what: string): 'accepted' | 'refused' {
  if (answer.kind === 'success') return 'accepted';
  if (answer.kind === 'refused' || answer.kind === 'other-fault') return 'refused';
  throw inconclusiveAnswer(answer, `${what} got ${describeAnswer(soap(answer))}, which says nothing about the session`);
}

/**
 * What an answer to SessionCreateRQ says about the pool, when the same account opened sessions before: a session, or
 * a pool refusal (the public `Client.ReachedTALimit`, or a fault that is neither a refusal of the credentials nor a
 * busy service).
 */
export function createVerdict(ctx: CheckContext, x: SoapExchange & { session?: OpenSession }, what: string): 'opened' | 'full' {
  if (x.session) return 'opened';
  const answer = soapAnswerOf(ctx, x);
  if (answer.kind === 'pool-full' || answer.kind === 'other-fault') return 'full';
  if (answer.kind === 'success') throw new PrerequisiteFailed(`${what} was answered SessionCreateRS without a session token`, ['STOK-02']);
  // An answer with no envelope to read (SOAP-02's to judge, on every answer) says nothing about the pool.
  if (answer.kind === 'not-soap') throw new PrerequisiteFailed(`${what} got ${describeAnswer(soap(answer))}, no SOAP envelope to read a session or a pool refusal from`, ['SOAP-02']);
  throw inconclusiveAnswer(answer, `${what} got ${describeAnswer(soap(answer))}, neither a session nor a pool refusal`);
}

/**
 * SessionCreateRQ for `account` where a slot should be free: refused as full, it is sent again after each pause of
 * {@link releasePauses}, so that a release a little late is not a release missed (principle 6). The last answer,
 * and how long after the first request the session came (noted when it came late).
 */
export async function createInReleasedSlot(ctx: CheckContext, account: Account, what: string, env: Environment = 'cert'): Promise<SoapExchange & { session?: OpenSession }> {
  const started = Date.now();
  const pauses = releasePauses(ctx.target.slotReleaseMs);
  for (let attempt = 0; ; attempt++) {
    const x = await sessionCreate(ctx, env, account);
    if (x.session) {
      if (attempt > 0) ctx.note(`${what}: the session came ${Date.now() - started} ms after the first SessionCreateRQ (${attempt} refused for a full pool before it): the slot was released late`);
      return x;
    }
    const pause = pauses[attempt];
    const kind = soapAnswerOf(ctx, x).kind;
    if (kind !== 'pool-full' && kind !== 'other-fault') return x;
    if (pause === undefined) {
      // What the verdict rests on, for a team whose service takes longer: the time it was given.
      if (ctx.target.kind === 'live') ctx.note(`${what}: refused as the pool being full ${attempt + 1} time(s) over ${Date.now() - started} ms; the target config's slotReleaseMs gives the service ${ctx.target.slotReleaseMs} ms to release a slot`);
      return x;
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/**
 * Opens `n` sessions; every one must open (the pool has room for them by its declared size). A pool refusal before
 * that is judged on what the harness established itself (its session ledger): when it closed, with the service's
 * acknowledgement, at least as many sessions of the account as the pool is short of, and holds the rest, the closes
 * did not release their slots — `closeFailed` says which rule that breaks. Otherwise (sessions the harness did not
 * open may hold the slots) the answer says nothing: inconclusive, saying what the harness knows.
 */
export async function openSessions(ctx: CheckContext, sa: SessionAccount, n: number, into: OpenSession[], closeFailed?: { readonly rule: string }): Promise<void> {
  for (let i = 0; i < n; i++) {
    // A slot an earlier close released may come free a little late on a deployed service.
    const x = await createInReleasedSlot(ctx, sa.account, `SessionCreateRQ number ${i + 1}`);
    if (x.session) {
      into.push(x.session);
      continue;
    }
    const answer = soapAnswerOf(ctx, x);
    const mine = sessionLedger('cert', sa.account.pcc);
    const short = (sa.poolSize ?? n) - mine.open;
    const known = `the harness opened ${mine.opened} session(s) of this account in this run, the service confirmed ${mine.closed} of them closed, and it holds ${mine.open}${mine.hidden > 0 ? ` (and ${mine.hidden} SessionCreateRQ got a gateway's error or an answer it could not read a token from, which may hide a session opened behind it)` : ''}`;
    // Evidence by difference: sessions another application holds on the account explain a full pool as well as closed
    // sessions that keep their slots. So, holding some, one of the sessions this check holds is closed (the service confirming it),
    // and the same SessionCreateRQ is sent again: a slot that comes back says closes release theirs (the shortfall is
    // someone else's sessions); none says they keep them.
    const full = answer.kind === 'pool-full' || answer.kind === 'other-fault';
    // Holding none, the difference cannot be made: the harness's own record decides. It closed, with the service's
    // confirmation, at least as many sessions as the pool holds, and not one slot is free: closes that released their
    // slots would need others to hold the whole pool now.
    // Every session the run opened is accounted for (confirmed over, or held): one whose close got no confirmation (a
    // gateway's page, a busy fault) may hold a slot itself, and so may a session opened behind a gateway's page.
    const accounted = mine.opened === mine.closed + mine.open && mine.hidden === 0;
    // Holding none of the full pool, the record decides: every session accounted for, a pool's worth confirmed closed.
    const pool = sa.poolSize;
    if (closeFailed && !sa.fresh && full && into.length === 0 && mine.open === 0 && accounted && pool !== undefined && mine.closed >= pool) {
      if (!closeFailed.rule.startsWith('SESS-02')) {
        // Closes that did not close (the sessions' tokens still served) hold the slots as open sessions: SESS-02's
        // deviation, which a close's slot says nothing more of.
        const open = await stillServed(ctx, sa.account);
        if (open) throw new PrerequisiteFailed(`SessionCreateRQ number ${i + 1} was refused as the pool is full, and ${open}: those sessions are still open`, ['SESS-02']);
      }
      const expected = `a session: the declared pool holds ${pool}, and closing a session releases its slot`;
      // The run's TokenCreateRQ tokens of the account hold no slot (a sessionless token allocates no session); a service
      // that gives them one (STOK-01's deviation: suites/service/soap-tokens.test.ts) fills the pool as well, once there
      // are as many as the pool holds — unless a session was granted beside that many of each kind (used, unused: a
      // service may allocate at the first call), which shows that kind holds none.
      if (tokensThatMayHoldSlots(mine, pool) >= pool) {
        // Tokens could fill it; but a close already seen, by difference, to keep its slot breaks the rule whatever fills
        // it now.
        const kept = keptSlotSeen();
        if (kept) throw new CheckFailure(`SessionCreateRQ number ${i + 1} was refused as the pool is full although ${known}; earlier in this run ${kept}: closed sessions keep their slots (${closeFailed.rule})`, { expected, actual: describeAnswer(soap(answer)) });
        throw new Inconclusive(`SessionCreateRQ number ${i + 1} was refused as the pool is full although ${known}; but the run also obtained ${mine.tokens} TokenCreateRQ token(s) of this account, and no session was granted beside as many: closed sessions that keep their slots and sessionless tokens that take one (STOK-01) would both fill the pool, and no slot is left to tell them apart`);
      }
      throw new CheckFailure(`SessionCreateRQ number ${i + 1} was refused as the pool is full although ${known}: the closed sessions still hold their slots (${closeFailed.rule})`, { expected, actual: describeAnswer(soap(answer)) });
    }
    if (closeFailed && !sa.fresh && full && into.length > 0 && short > 0) {
      if ((await useAndClose(ctx, into.pop()!)).confirmed) {
        const again = await createInReleasedSlot(ctx, sa.account, `SessionCreateRQ number ${i + 1}, after closing one of the sessions this check held`);
        if (again.session) {
          into.push(again.session);
          // The close just made released its slot; whether the others the run closed did, nothing outside the service
          // tells apart from another application's sessions holding those slots.
          throw new Inconclusive(`SessionCreateRQ number ${i + 1} was refused as the pool is full, and a slot came back when this check closed one of its sessions: that close released its slot, and the other ${short} slot(s) the declared pool is short of are held either by sessions the harness did not open or by sessions it closed that kept theirs, which the harness cannot tell apart from outside (${known}; or sessionPoolSize in the target config is too large)`);
        }
        if (createVerdict(ctx, again, `SessionCreateRQ number ${i + 1}, after closing one of the sessions this check held`) === 'full') {
          // A close that did not close (the token still served) keeps its slot as an open session: SESS-02's deviation.
          const open = closeFailed.rule.startsWith('SESS-02') ? undefined : await stillServed(ctx, sa.account);
          if (open) throw new PrerequisiteFailed(`SessionCreateRQ number ${i + 1} was refused as the pool is full, and again after this check closed one of its sessions; ${open}: the closes leave the sessions open`, ['SESS-02']);
          throw new CheckFailure(`SessionCreateRQ number ${i + 1} was refused as the pool is full, and again after this check closed one of the sessions it held (the service confirmed the close): closed sessions keep their slots (${closeFailed.rule})`, {
            expected: `a session in the slot the close released (the declared pool holds ${sa.poolSize})`,
            actual: describeAnswer(soap(soapAnswerOf(ctx, again))),
          });
        }
      }
    }
    // A session the service granted without its token (STOK-02's deviation) is no refusal: the check has no session to hold.
    if (answer.kind === 'success') throw new PrerequisiteFailed(`SessionCreateRQ number ${i + 1} was answered SessionCreateRS without a session token`, ['STOK-02']);
    if (answer.kind === 'not-soap') throw new PrerequisiteFailed(`SessionCreateRQ number ${i + 1} got ${describeAnswer(soap(answer))}, no SOAP envelope to read a session or a pool refusal from`, ['SOAP-02']);
    if (into.length === 0 && answer.kind !== 'pool-full' && answer.kind !== 'other-fault') await openSession(ctx, 'cert', sa.account); // throws the prerequisite that explains why
    throw new Inconclusive(
      `SessionCreateRQ number ${i + 1} was refused (${describeAnswer(soap(answer))}) although the declared pool holds ${sa.poolSize}`
        + (sa.fresh ? '' : `; ${known}, so sessions the harness did not open may hold the slots, or sessionPoolSize in the target config is too large`),
    );
  }
}

/**
 * The first of the account's sessions whose close the service acknowledged in this run (at most the 4 newest) that
 * is still served: its token accepted by the session probe — or, where none can be found (finding one needs a
 * session), by a second SessionCloseRQ, as SESS-02's check does without a probe. The action and its answer, or
 * undefined.
 */
export async function servedAfterClose(ctx: CheckContext, account: Account): Promise<{ action: string; answer: SoapAnswer } | undefined> {
  for (const closed of acknowledgedCloses('cert', account.pcc).slice(0, 4)) {
    const probed = await callInSession(ctx, closed).catch(() => undefined);
    const answer = probed ? probed.answer : soapAnswerOf(ctx, await closeRequest(ctx, 'cert', closed.token, closed.conversationId, closed.cpaId));
    if (answer.kind === 'success') return { action: probed?.request.action ?? 'SessionCloseRQ', answer };
  }
  return undefined;
}

/** {@link servedAfterClose} in words, for a prerequisite naming SESS-02. */
async function stillServed(ctx: CheckContext, account: Account): Promise<string | undefined> {
  const served = await servedAfterClose(ctx, account);
  return served && `${served.action} with the token of a session whose close the service acknowledged was accepted`;
}

/**
 * Closes one of the sessions a pool check holds, to see its slot come free. The close must be confirmed: acknowledged,
 * or its token refused as invalid right after (see sessionClose). A close the service refused while the token stays
 * valid is SESS-02's deviation: SESS-02's own checks fail it (`own`), the others name SESS-02. A close whose answer
 * says nothing (a gateway's page that came back on every resend) may never have reached the service, so a slot that
 * does not come free after it says nothing either: inconclusive.
 */
export async function closeToFreeSlot(ctx: CheckContext, session: OpenSession, what: string, own: boolean): Promise<void> {
  const x = await useAndClose(ctx, session);
  if (x.confirmed) return;
  const answer = soapAnswerOf(ctx, x);
  if (answer.kind === 'refused' || answer.kind === 'other-fault') {
    const message = `${what}: SessionCloseRQ of an open session was refused, and its token is still accepted`;
    if (own) throw new CheckFailure(message, { expected: 'a close (the token becomes invalid)', actual: describeAnswer(soap(answer)) });
    throw new PrerequisiteFailed(message, ['SESS-02']);
  }
  throw new Inconclusive(`${what}: SessionCloseRQ got ${describeAnswer(soap(answer))}, and the session's token is still accepted: the close may not have reached the service, so whether its slot comes free cannot be seen`);
}

/**
 * A session as an application ends one: used (the session probe), then closed. The pool checks close sessions this way
 * to see a slot come free: "session resources are released" holds for a session that served calls, and a service
 * that keeps the slot of a used session only (a blind service did) looked, to a check closing sessions it never used,
 * like sessions of another application holding the slots.
 */
async function useAndClose(ctx: CheckContext, session: OpenSession): ReturnType<typeof sessionClose> {
  await callInSession(ctx, session).catch(() => undefined);
  return sessionClose(ctx, session);
}

/** Closes the sessions, ignoring what comes back (cleanup). */
export async function closeAll(ctx: CheckContext, sessions: readonly OpenSession[]): Promise<void> {
  for (const s of sessions) await sessionClose(ctx, s).catch(() => undefined);
}
