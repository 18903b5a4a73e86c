import fc from 'fast-check';
import { callSoap, describeAnswer, expectAccepted, PROBE_HINTS, soap, soapAnswer, soapAnswerOf, soapProbe, type SoapProbeResult } from '../../harness/checks/probe.ts';
import {
  CheckFailure, closeRequest, declaredCertAccounts, expectThat, Inconclusive, inClause, obtainSoapToken, openSession, ping, PrerequisiteFailed, recordKeptSlot, ruleProperty, ruleTest, runConfig, sessionClose, sessionCreate,
  sessionLedger, type CheckContext, type OpenSession,
} from '../../harness/checks/index.ts';
import { scaledRuns, withExamples } from '../../harness/checks/rule-test.ts';
import { limits, type Environment, type RuleId } from '../../harness/catalog/index.ts';
import type { Account } from '../../harness/targets/index.ts';
import type { SoapAnswer } from '../../harness/classify/index.ts';
import { acceptedSession } from './support/fresh-tokens.ts';
import {
  callInSession, closeAll, closeToFreeSlot, createInReleasedSlot, createVerdict, openSessions, servedAfterClose, sessionAccount, sessionVerdict, type SessionAccount,
} from './support/sessions.ts';
import { auditExchanges } from './support/audits.ts';

const DEFAULT_TIMEOUT = limits.defaultSessionTimeoutSeconds;

/** A fresh session of `sa` whose token the session probe accepts right away (else the check cannot judge it). */
async function liveSession(ctx: CheckContext, sa: SessionAccount, owner?: RuleId): Promise<OpenSession> {
  const session = await openSession(ctx, 'cert', sa.account);
  if (owner !== 'SESS-01') {
    await acceptedSession(ctx, session);
    return session;
  }
  const { answer, request } = await callInSession(ctx, session);
  if (answer.kind === 'refused') {
    throw new CheckFailure(`${request.action} right after SessionCreateRQ refused the session token`, { expected: 'accepted: the session is open', actual: describeAnswer(soap(answer)) });
  }
  if (answer.kind !== 'success') throw new Inconclusive(`${request.action} answered ${describeAnswer(soap(answer))} to a fresh session token`);
  return session;
}

/** Other actions the target declares as taking session tokens, which the account may call right now. */
async function otherSessionActions(ctx: CheckContext, session: OpenSession): Promise<string[]> {
  const probe = (await soapProbe(ctx, 'soapSession')).action;
  const candidates = Object.entries(ctx.target.declared.tokenKinds)
    .filter(([api, kinds]) => kinds.includes('session') && !api.startsWith('/') && !/^(GET|POST) /.test(api) && api !== probe)
    .map(([api]) => api);
  const usable: string[] = [];
  for (const action of candidates) if ((await callInSession(ctx, session, action)).answer.kind === 'success') usable.push(action);
  return usable;
}

ruleTest('SESS-01', 'a request with the session token shortly before the inactivity timeout lets a later call succeed past the original deadline', async (ctx) => {
  const control = ctx.target.control!;
  const sa = await sessionAccount(ctx);
  const step = Math.floor(sa.timeoutSeconds * 0.9);
  const session = await liveSession(ctx, sa, 'SESS-01');
  try {
    const others = await otherSessionActions(ctx, session);
    if (others.length === 0) ctx.unchecked('SESS-01.keepalive-any-request', 'the target declares no other action that takes session tokens (tokenKinds)');
    // The Refresh Session API keeps the session open; then each other action does, in turn. A refusal fails the clause
    // of the request before it, which did not keep the session open (none before the first: SessionCreateRQ).
    const clauseAfter = (previous: string | null) => (previous === null ? undefined : previous === 'ping' ? 'SESS-01.keepalive-ping' : 'SESS-01.keepalive-any-request');
    let previous: string | null = null;
    for (const keepAlive of [undefined, ...others]) {
      await control.advanceClock(step);
      const kept = await callInSession(ctx, session, keepAlive);
      const what = `${kept.request.action} ${step} s after the last request (timeout ${sa.timeoutSeconds} s)`;
      if (sessionVerdict(kept.answer, what) === 'refused') {
        throw new CheckFailure(`${what} was refused`, { expected: 'accepted: the session is open', actual: describeAnswer(soap(kept.answer)), ...(clauseAfter(previous) && { clause: clauseAfter(previous) }) });
      }
      previous = keepAlive ?? 'ping';
    }
    await control.advanceClock(step);
    const later = await callInSession(ctx, session);
    const what = `a call ${step} s after the last keep-alive request, ${(others.length + 2) * step} s after SessionCreateRQ (past the original deadline)`;
    if (sessionVerdict(later.answer, what) === 'refused') {
      throw new CheckFailure(`${what} was refused`, { expected: 'accepted: the requests kept the session open', actual: describeAnswer(soap(later.answer)), ...(clauseAfter(previous) && { clause: clauseAfter(previous) }) });
    }
  } finally {
    await sessionClose(ctx, session);
  }
}, { clauses: ['SESS-01.keepalive-ping', 'SESS-01.keepalive-any-request'] });

ruleTest('SESS-02', 'after SessionCloseRQ the session token is refused', async (ctx) => {
  const sa = await sessionAccount(ctx);
  // The session probe found first: finding it opens and closes a session of its own, which must not fall between this
  // check's sessions and its close.
  await soapProbe(ctx, 'soapSession').catch(() => undefined);
  // That close may release its slot a little late on a deployed service; no session after the pauses, openSession
  // names the prerequisite.
  const first = await createInReleasedSlot(ctx, sa.account, 'SessionCreateRQ');
  // A pool full of sessions whose closes the service acknowledged (earlier checks' closes that kept the sessions open):
  // their tokens say so, whichever check closed them.
  if (!first.session) await closedButServed(ctx, sa.account);
  let session = first.session ?? await openSession(ctx, 'cert', sa.account);
  // The session probe, with its control (accepted before the close); or — where the service offers no action the
  // harness finds — a second SessionCloseRQ, the close itself being the control: a call with the token either way,
  // which the document says is refused once the token is invalid ("The token becomes invalid"). Every other action
  // the target declares as taking session tokens, and that accepts this one before the close, is tried after it too.
  const probe = await acceptedSession(ctx, session).then(() => true, (err: unknown) => {
    if (err instanceof Inconclusive) return false;
    throw err;
  });
  let others = probe ? await otherSessionActions(ctx, session) : [];
  // A second session of the caller, open (the probe accepting it) before the close: the close ends only the session
  // whose token it carries ("open — SessionCloseRQ — … carries … the token — closed"), so it stays open after.
  const witness = await witnessSession(ctx, sa.account, probe);
  let held = witness.session;
  // The first session still open once the second was opened (the probe's control, again): a service that ends a
  // caller's session when it opens another refuses a close of the first for a reason of its own, which is SESS-04's
  // to judge ("Sessions not closed stay allocated until they time out"), not the close's. The close is then judged on
  // the second session, and no other session can witness it.
  if (probe && witness.session) {
    const still = await callInSession(ctx, session);
    if (still.answer.kind === 'refused') {
      ctx.note(`${still.request.action} refused the first session's token (accepted before) once a second session of the account was opened: the service ended it (SESS-04's to judge); the close is judged on the second session`);
      session = witness.session;
      others = await otherSessionActions(ctx, session);
      witness.session = undefined;
      witness.why = 'opening a second session of the account ended the first, so no session could witness the close';
      held = undefined;
    }
  }
  // And one of the same caller in the other environment, where the target has one: a close in CERT ends no session
  // in PROD (a blind service's close ended the caller's sessions in both).
  const elsewhere = probe ? await otherEnvironmentWitness(ctx, sa) : undefined;
  // A close whose token's refusal cannot be read (a gateway's page in place of every fault) still lets the other
  // session be judged by difference: then the close's unclear answer is thrown after it.
  let unclearClose: Inconclusive | undefined;
  try {
    await closeAndJudge(ctx, session, probe, others).catch((err: unknown) => {
      if (!(err instanceof Inconclusive)) throw err;
      unclearClose = err;
    });
    await judgeWitness();
    if (elsewhere) {
      const after = await callInSession(ctx, elsewhere.session);
      const what = `${after.request.action} in PROD with the token of the caller's session there (accepted before the close)`;
      if (after.answer.kind === 'refused') {
        throw new CheckFailure(`${what} was refused after SessionCloseRQ of a CERT session: the close ended a session of the other environment`, {
          expected: 'accepted: a close ends only the session whose token it carries', actual: describeAnswer(soap(after.answer)), clause: 'SESS-02.one-session',
        });
      }
      // Neither (a gateway's page in place of every fault): by difference, against a PROD session opened after the close.
      if (after.answer.kind !== 'success') {
        await witnessByDifference(ctx, elsewhere.account, after, `${what}, after SessionCloseRQ of a CERT session`, 'prod').catch((err: unknown) => {
          if (!(err instanceof Inconclusive)) throw err;
          ctx.note(`SESS-02.one-session in PROD: ${describeAnswer(soap(after.answer))} after the close, which says nothing (${err.message})`);
        });
      }
    }
    if (unclearClose) throw unclearClose;
  } finally {
    if (held) await sessionClose(ctx, held).catch(() => undefined);
    if (elsewhere) await sessionClose(ctx, elsewhere.session).catch(() => undefined);
  }

  async function judgeWitness(): Promise<void> {
    if (!witness.session) return ctx.unchecked('SESS-02.one-session', witness.why);
    // With no probe, the other session's own close is the call (it is refused if the session was ended).
    const after = probe ? await callInSession(ctx, witness.session) : undefined;
    if (!probe) held = undefined;
    const answer = after?.answer ?? soapAnswerOf(ctx, await sessionClose(ctx, witness.session));
    const what = after ? `${after.request.action} with the token of the caller's other session (accepted before the close)` : 'SessionCloseRQ of the caller\'s other session, opened before the close';
    if (answer.kind === 'refused') {
      throw new CheckFailure(`${what} was refused after SessionCloseRQ of the first session: the close ended a session whose token it did not carry`, {
        expected: 'accepted: a close ends only the session whose token it carries', actual: describeAnswer(soap(answer)), clause: 'SESS-02.one-session',
      });
    }
    if (answer.kind === 'success') return;
    const unclear = `${what} got ${describeAnswer(soap(answer))} after the close, which says nothing about the session`;
    if (!after) return ctx.unchecked('SESS-02.one-session', unclear);
    // An answer that is neither (a gateway's page in place of every fault): read by difference in the token, against
    // the same call with a session opened after the close, served.
    await witnessByDifference(ctx, sa.account, after, what).catch((err: unknown) => {
      if (!(err instanceof Inconclusive)) throw err;
      ctx.unchecked('SESS-02.one-session', `${unclear} (${err.message})`);
    });
  }
}, { clauses: ['SESS-02.token-refused', 'SESS-02.one-session'] });

/** Where no session can be had: a session whose close the service acknowledged earlier, still served (servedAfterClose). */
async function closedButServed(ctx: CheckContext, account: Account): Promise<void> {
  const served = await servedAfterClose(ctx, account);
  if (!served) return;
  throw new CheckFailure(`${served.action} with the token of the closed session was accepted`, {
    expected: 'a refusal (Client.InvalidSecurityToken; its details are ERR-04\'s): the service acknowledged its SessionCloseRQ earlier in the run, and no session could be opened for this check',
    actual: describeAnswer(soap(served.answer)), clause: 'SESS-02.token-refused',
  });
}

/** SESS-02.one-session on an unclear answer to the witness session: its control is a session opened after the close. */
async function witnessByDifference(ctx: CheckContext, account: Account, after: SoapProbeResult, what: string, env: Environment = 'cert'): Promise<void> {
  const fresh = (await createInReleasedSlot(ctx, account, 'SessionCreateRQ after the close (the control)', env)).session;
  if (!fresh) throw new Inconclusive('no session could be opened after the close to serve as the control');
  try {
    const control = await callInSession(ctx, fresh);
    await inClause('SESS-02.one-session', () => expectAccepted(soapAnswer(after), what, PROBE_HINTS.soapSession, 'accepted: a close ends only the session whose token it carries', {
      factor: 'token', before: soapAnswer(control), again: async () => soapAnswer(await callInSession(ctx, fresh)),
    }));
  } finally {
    await sessionClose(ctx, fresh).catch(() => undefined);
  }
}

/**
 * A session of the same caller in PROD, the session probe there accepting it: on the simulator the check's fresh
 * account made in PROD too (same EPR, PCC and password), on a live target the configured PROD account (with
 * `--allow-opt-in`). None where the target has no PROD, or no such session opens (noted: the clause is judged in CERT
 * all the same).
 */
async function otherEnvironmentWitness(ctx: CheckContext, sa: SessionAccount): Promise<{ session: OpenSession; account: Account } | undefined> {
  // On a live target PROD is used by opt-in rules only (the simulator allows them always).
  if (!ctx.target.environments.prod || !ctx.target.allowOptIn) return undefined;
  const control = ctx.target.control;
  let account = ctx.target.accounts.prod;
  if (control && sa.fresh) {
    await control.addAccount('prod', { ...sa.account, poolSize: sa.poolSize ?? 4, sessionTimeoutSeconds: sa.timeoutSeconds });
    account = sa.account;
  }
  if (!account) return undefined;
  const x = await sessionCreate(ctx, 'prod', account);
  if (!x.session) {
    ctx.note(`SESS-02.one-session: no session of the caller in PROD to witness the close (${describeAnswer(soap(soapAnswerOf(ctx, x)))})`);
    return undefined;
  }
  const { answer } = await callInSession(ctx, x.session);
  if (answer.kind === 'success') return { session: x.session, account };
  ctx.note(`SESS-02.one-session: the session probe in PROD answered ${describeAnswer(soap(answer))} to a session there before the close, so it cannot witness it`);
  await sessionClose(ctx, x.session).catch(() => undefined);
  return undefined;
}

/** A second open session of the caller beside `session`, the probe accepting its token (when there is a probe). */
async function witnessSession(ctx: CheckContext, account: Account, probe: boolean): Promise<{ session?: OpenSession | undefined; why: string }> {
  // A slot a close just before released may come free a little late on a deployed service.
  const x = await createInReleasedSlot(ctx, account, 'a second SessionCreateRQ of the account');
  if (!x.session) return { why: `a second SessionCreateRQ of the account got ${describeAnswer(soap(soapAnswerOf(ctx, x)))}, so no other session could witness the close` };
  if (!probe) return { session: x.session, why: '' };
  const { answer } = await callInSession(ctx, x.session);
  if (answer.kind === 'success') return { session: x.session, why: '' };
  await sessionClose(ctx, x.session).catch(() => undefined);
  return { why: `the session probe answered ${describeAnswer(soap(answer))} to a second session of the account before the close` };
}

/** SESS-02.token-refused: the close, then every call with the closed token that worked before it is refused. */
async function closeAndJudge(ctx: CheckContext, session: OpenSession, probe: boolean, others: readonly string[]): Promise<void> {
  const closed = await sessionClose(ctx, session);
  const answer = soapAnswerOf(ctx, closed);
  if (answer.kind === 'refused') throw new CheckFailure('SessionCloseRQ with ConversationId, CPAId and the token of an open session was refused', { expected: 'a close', actual: describeAnswer(soap(answer)), clause: 'SESS-02.token-refused' });
  // The answer to the close is "Not shown beyond the invalidation of the token" (its form is SOAP-02's): what decides
  // is whether the token is refused afterwards.
  if (answer.kind !== 'success') ctx.note(`SessionCloseRQ got ${describeAnswer(soap(answer))}: the close is judged by the calls with the token that follow`);
  const after = probe
    ? await callInSession(ctx, session)
    : await closeRequest(ctx, 'cert', session.token, session.conversationId).then((x) => ({ ...x, answer: soapAnswerOf(ctx, x) }));
  // An answer that says nothing (a gateway's page in place of the refusal) leaves the other actions to be tried: one
  // that still serves the token is evidence enough.
  let unclear: Inconclusive | undefined;
  const judge = (answer: SoapAnswer, what: string, expected: string) => {
    let verdict: 'accepted' | 'refused';
    try {
      verdict = sessionVerdict(answer, what);
    } catch (err) {
      if (!(err instanceof Inconclusive)) throw err;
      unclear ??= err;
      return;
    }
    if (verdict === 'accepted') throw new CheckFailure(`${what} was accepted`, { expected, actual: describeAnswer(soap(answer)), clause: 'SESS-02.token-refused' });
  };
  judge(after.answer, `${after.request.action} with the token of the closed session`, 'a refusal (Client.InvalidSecurityToken; its details are ERR-04\'s)');
  for (const action of others) {
    const x = await callInSession(ctx, session, action);
    judge(x.answer, `${action} with the token of the closed session (accepted before the close)`, 'a refusal: the token became invalid');
  }
  // A second SessionCloseRQ is a call with the closed token too ("A SOAP call with an invalid or expired session token
  // returns the fault"): a blind service acknowledged it as if the session were still open.
  // Only an acceptance says something here: any other answer (a gateway's own page, say) leaves the probe's verdict.
  if (probe) {
    const again = soapAnswerOf(ctx, await closeRequest(ctx, 'cert', session.token, session.conversationId));
    if (again.kind === 'success') throw new CheckFailure('a second SessionCloseRQ with the token of the closed session was accepted', { expected: 'a refusal (Client.InvalidSecurityToken; its details are ERR-04\'s)', actual: describeAnswer(soap(again)), clause: 'SESS-02.token-refused' });
  }
  if (unclear) throw unclear;
}

/** The pool size a pool check works with; none declared makes it not applicable. */
function declaredPool(ctx: CheckContext, sa: SessionAccount): number {
  if (!sa.poolSize) return ctx.notApplicable('the target config does not give sessionPoolSize');
  return sa.poolSize;
}

ruleTest('SESS-02', 'closing a session releases its pool slot', async (ctx) => {
  ctx.requireOptIn('filling the session pool');
  const sa = await sessionAccount(ctx, { poolSize: 2 });
  const size = declaredPool(ctx, sa);
  try {
    await slotReleasedInMainPool(ctx, sa, size);
  } catch (error) {
    if (!(error instanceof Inconclusive) || sa.fresh) throw error;
    await inDeclaredPool(ctx, error, size, { own: true });
  }
}, { clauses: ['SESS-02.slot-released'] });

/**
 * Another route for a pool check on a live target: the main account's pool, full of what earlier checks left in it,
 * could not tell closed sessions that keep their slots from sessionless tokens that take one (`error`); a declared
 * account's own pool can show whether a close releases its slot, by difference ({@link slotReleasedIn}). Returns once
 * one did; throws the main pool's error, with what each declared pool showed, when none could.
 */
async function inDeclaredPool(ctx: CheckContext, error: Inconclusive, size: number, judged: { readonly own: boolean; readonly clause?: string }): Promise<void> {
  const tried: string[] = [];
  for (const route of declaredCertAccounts(ctx)) {
    const outcome = await slotReleasedIn(ctx, route.account, size, judged);
    if (outcome === 'checked') {
      ctx.note(`the main account's pool could not show it (${error.message}): ${route.what} was filled instead`);
      return;
    }
    tried.push(`${route.what}: ${outcome}`);
  }
  if (tried.length === 0) throw error;
  throw new Inconclusive(`${error.message}; the declared accounts' pools could not show it either (${tried.join('; ')})`);
}

/** SESS-02's pool check in the main account's pool of the declared size. */
async function slotReleasedInMainPool(ctx: CheckContext, sa: SessionAccount, size: number): Promise<void> {
  const sessions: OpenSession[] = [];
  try {
    await openSessions(ctx, sa, size, sessions, { rule: 'SESS-02: closing a session releases its pool slot' });
    const extra = await sessionCreate(ctx, 'cert', sa.account);
    if (createVerdict(ctx, extra, `SessionCreateRQ number ${size + 1}`) === 'opened') {
      sessions.push(extra.session!);
      throw new PrerequisiteFailed(`the pool took more than its ${size} sessions, so a released slot cannot be seen`, ['SESS-04']);
    }
    await closeToFreeSlot(ctx, sessions.pop()!, 'closing a session of the full pool', true);
    const again = await createInReleasedSlot(ctx, sa.account, 'SessionCreateRQ after a session of the full pool was closed');
    if (createVerdict(ctx, again, 'SessionCreateRQ after a session of the full pool was closed') === 'full') {
      recordKeptSlot(`SESS-02's pool check closed one of the sessions of the full pool of the account ${sa.account.epr}, the service confirming it, and SessionCreateRQ was still refused as full`);
      throw new CheckFailure('SessionCreateRQ was refused after a session of the full pool was closed', { expected: 'a session in the released slot', actual: describeAnswer(soap(soapAnswerOf(ctx, again))) });
    }
    sessions.push(again.session!);
  } finally {
    await closeAll(ctx, sessions);
  }
}

/**
 * SESS-02's pool check in another account's pool, whose size the config does not give: filled until SessionCreateRQ is
 * refused as full (at most one more than the main pool's size), then one of its sessions used and closed, and the same
 * SessionCreateRQ sent again. `checked` when the slot came back (a refusal fails the check); otherwise why the pool
 * could not show it.
 */
async function slotReleasedIn(ctx: CheckContext, account: Account, size: number, judged: { readonly own: boolean; readonly clause?: string }): Promise<'checked' | string> {
  const held: OpenSession[] = [];
  try {
    for (;;) {
      const x = await sessionCreate(ctx, 'cert', account);
      if (x.session) {
        held.push(x.session);
        if (held.length > size) return `its pool took more than the ${size} sessions of the main account's`;
        continue;
      }
      const answer = soapAnswerOf(ctx, x);
      if (answer.kind !== 'pool-full' && answer.kind !== 'other-fault') return `SessionCreateRQ got ${describeAnswer(soap(answer))}`;
      if (held.length === 0) return 'its pool was full before the check held a session of it';
      break;
    }
    // Used first, as an application does (a service may keep only a used session's slot): the session probe, found
    // with a session of the main account, may not be found while its pool is full; the Refresh Session API then.
    const session = held.at(-1)!;
    const probed = await callInSession(ctx, session).then((r) => r.answer).catch(async () => soapAnswerOf(ctx, await ping(ctx, 'cert', session.token, session.conversationId)));
    if (probed.kind !== 'success') return `a session of it could not be used before its close (${describeAnswer(soap(probed))})`;
    await closeToFreeSlot(ctx, held.pop()!, `closing a session of the full pool of the account ${account.epr}`, judged.own);
    const what = `SessionCreateRQ of the account ${account.epr} after a session of its full pool was closed`;
    const again = await createInReleasedSlot(ctx, account, what);
    if (createVerdict(ctx, again, what) === 'full') {
      recordKeptSlot(`a pool check closed one of its sessions of the full pool of the account ${account.epr}, the service confirming it, and SessionCreateRQ was still refused as full`);
      throw new CheckFailure(`${what} was refused: the pool was full with ${held.length + 1} of the check's sessions, and closing one of them did not release its slot`, {
        expected: 'a session in the released slot', actual: describeAnswer(soap(soapAnswerOf(ctx, again))), ...(judged.clause && { clause: judged.clause }),
      });
    }
    held.push(again.session!);
    return 'checked';
  } finally {
    await closeAll(ctx, held);
  }
}

/** Idles a live session for `idle` seconds and asks whether it is still open. */
async function afterIdle(ctx: CheckContext, session: OpenSession, idle: number): Promise<{ verdict: 'accepted' | 'refused'; answer: string }> {
  await ctx.target.control!.advanceClock(idle);
  const { answer } = await callInSession(ctx, session);
  return { verdict: sessionVerdict(answer, `a call ${idle} s after the last request`), answer: describeAnswer(soap(answer)) };
}

ruleTest('SESS-03', 'with the default timeout (15 minutes), an idle session expires', async (ctx) => {
  const sa = await sessionAccount(ctx, { timeoutSeconds: DEFAULT_TIMEOUT });
  if (sa.timeoutSeconds !== DEFAULT_TIMEOUT) ctx.unchecked('SESS-03.default-timeout', `the account's timeout is ${sa.timeoutSeconds} s, not the default ${DEFAULT_TIMEOUT} s`);
  const session = await liveSession(ctx, sa);
  const state = { closed: false };
  try {
    const alive = await afterIdle(ctx, session, sa.timeoutSeconds - 1);
    if (alive.verdict === 'refused') throw new PrerequisiteFailed(`the session was refused ${sa.timeoutSeconds - 1} s after its last request, before the timeout`, ['SESS-01']);
    await judgeExpiry(ctx, session, sa.timeoutSeconds + 1, `timeout ${sa.timeoutSeconds} s`, 'SESS-03.default-timeout', state);
  } finally {
    if (!state.closed) await sessionClose(ctx, session);
  }
}, { clauses: ['SESS-03.default-timeout'] });

/**
 * The session `idle` seconds after its last request, past its timeout: a call with its token is refused, and so is its
 * close. Where the call's answer says nothing (a gateway's page in place of the fault), the close is still judged: an
 * acknowledged close of a session past its timeout is SESS-03's whether the session expired or not.
 */
async function judgeExpiry(ctx: CheckContext, session: OpenSession, idle: number, timeout: string, clause: string, state: { closed: boolean }): Promise<void> {
  const when = `${idle} s after its last request`;
  let unclear: Inconclusive | undefined;
  const expired = await afterIdle(ctx, session, idle).catch((err: unknown) => {
    if (!(err instanceof Inconclusive)) throw err;
    unclear = err;
    return undefined;
  });
  if (expired) expectThat(expired.verdict === 'refused', `the session was still open ${when} (${timeout})`, { expected: 'a refusal (Client.InvalidSecurityToken)', actual: expired.answer });
  state.closed = true;
  await expectExpiredCloseRefused(ctx, session, when, clause);
  if (unclear) throw unclear;
}

/**
 * A SessionCloseRQ with the token of a session that timed out is refused as every other call with it is ("A SOAP call
 * with an invalid or expired session token returns the fault"). An acknowledgement is the evidence; an answer that is
 * neither (a gateway's page in place of the fault) says nothing and is noted.
 */
async function expectExpiredCloseRefused(ctx: CheckContext, session: OpenSession, when: string, clause: string): Promise<void> {
  const answer = soapAnswerOf(ctx, await sessionClose(ctx, session));
  if (answer.kind === 'success') {
    throw new CheckFailure(`SessionCloseRQ with the token of the session that timed out (${when}, its other calls refused) was acknowledged`, {
      expected: 'a refusal (Client.InvalidSecurityToken): "A SOAP call with an invalid or expired session token returns the fault"', actual: describeAnswer(soap(answer)), clause,
    });
  }
  if (answer.kind !== 'refused') ctx.note(`SessionCloseRQ with the token of the session that timed out got ${describeAnswer(soap(answer))}, which says nothing about the token`);
}

ruleProperty(
  'SESS-03',
  'the inactivity timeout is the account\'s own: open until it, expired after it',
  fc.record({ timeout: fc.integer({ min: 60, max: 3_600 }), slack: fc.integer({ min: 1, max: 600 }) }),
  async (ctx, { timeout, slack }) => {
    if (!ctx.target.control) return ctx.notApplicable('needs accounts with other timeouts, which only the simulator creates');
    const sa = await sessionAccount(ctx, { timeoutSeconds: timeout });
    const session = await liveSession(ctx, sa);
    const state = { closed: false };
    try {
      const alive = await afterIdle(ctx, session, timeout - 1);
      expectThat(alive.verdict === 'accepted', `the session was refused ${timeout - 1} s after its last request, before the account's timeout of ${timeout} s`, { expected: 'accepted', actual: alive.answer });
      await judgeExpiry(ctx, session, timeout + slack, `the account's timeout: ${timeout} s`, 'SESS-03.account-timeout', state);
    } finally {
      if (!state.closed) await sessionClose(ctx, session);
    }
  },
  { numRuns: 8, clauses: ['SESS-03.account-timeout'] },
);

ruleTest('SESS-04', 'with the pool full, SessionCreateRQ is refused; closing a session or its timeout frees a slot', async (ctx) => {
  const sa = await sessionAccount(ctx, { poolSize: 3 });
  const size = declaredPool(ctx, sa);
  const sessions: OpenSession[] = [];
  try {
    try {
      await inClause('SESS-04.close-frees-slot', () => openSessions(ctx, sa, size, sessions, { rule: 'SESS-04: closing a session frees a slot' }));
    } catch (error) {
      // As SESS-02's pool check: a declared account's pool shows whether a close frees a slot (its size unknown, whether
      // a full pool refuses stays unchecked). The main pool's sessions the check holds are closed first.
      if (!(error instanceof Inconclusive) || sa.fresh) throw error;
      await closeAll(ctx, sessions.splice(0));
      await inDeclaredPool(ctx, error, size, { own: false, clause: 'SESS-04.close-frees-slot' });
      ctx.unchecked('SESS-04.pool-full-refused', `the main account's pool was full of what earlier checks left in it (${error.message}), and a declared account's pool size is not known`);
      ctx.unchecked('SESS-04.timeout-frees-slot', 'letting sessions time out needs control of the clock (the simulator); the harness does not wait out a live session\'s inactivity timeout');
      return;
    }
    const extra = await sessionCreate(ctx, 'cert', sa.account);
    if (createVerdict(ctx, extra, `SessionCreateRQ number ${size + 1}`) === 'opened') {
      sessions.push(extra.session!);
      throw new CheckFailure(`SessionCreateRQ number ${size + 1} was accepted with a pool of ${size} (none of the sessions closed or timed out)`, { expected: 'a refusal (publicly seen: Client.ReachedTALimit)', actual: `${size + 1} sessions open`, clause: 'SESS-04.pool-full-refused' });
    }
    const closed = sessions.shift()!;
    await closeToFreeSlot(ctx, closed, 'closing a session of the full pool', false);
    if (sessionVerdict((await callInSession(ctx, closed)).answer, 'a call with the closed session\'s token') === 'accepted') {
      throw new PrerequisiteFailed('SessionCloseRQ did not close the session (its token is still accepted)', ['SESS-02']);
    }
    const afterClose = await createInReleasedSlot(ctx, sa.account, 'SessionCreateRQ after a close');
    if (createVerdict(ctx, afterClose, 'SessionCreateRQ after a close') === 'full') {
      recordKeptSlot(`SESS-04's pool check closed one of the sessions of the full pool of the account ${sa.account.epr}, the service confirming it, and SessionCreateRQ was still refused as full`);
      throw new CheckFailure('closing a session did not free a slot', { expected: 'a new session', actual: describeAnswer(soap(soapAnswerOf(ctx, afterClose))), clause: 'SESS-04.close-frees-slot' });
    }
    sessions.push(afterClose.session!);
    if (!ctx.target.control) {
      ctx.unchecked('SESS-04.timeout-frees-slot', 'letting sessions time out needs control of the clock (the simulator); the harness does not wait out a live session\'s inactivity timeout');
      return;
    }
    await ctx.target.control.advanceClock(sa.timeoutSeconds + 1);
    if (sessionVerdict((await callInSession(ctx, sessions[0]!)).answer, 'a call with an idle session\'s token past the timeout') === 'accepted') {
      throw new PrerequisiteFailed('the sessions did not time out (their tokens are still accepted)', ['SESS-03']);
    }
    const afterTimeout = await createInReleasedSlot(ctx, sa.account, 'SessionCreateRQ after the timeout');
    if (createVerdict(ctx, afterTimeout, 'SessionCreateRQ after the timeout') === 'full') throw new CheckFailure('sessions that timed out did not free their slots', { expected: 'a new session', actual: describeAnswer(soap(soapAnswerOf(ctx, afterTimeout))), clause: 'SESS-04.timeout-frees-slot' });
    sessions.push(afterTimeout.session!);
  } finally {
    await closeAll(ctx, sessions);
  }
}, { clauses: ['SESS-04.pool-full-refused', 'SESS-04.unclosed-stay-allocated', 'SESS-04.close-frees-slot', 'SESS-04.timeout-frees-slot'] });

// ---- the token and session lifecycle as a model ------------------------------------------------------------------

/**
 * One model of the state tables (sessions and sessionless SOAP tokens) drives random sequences of operations; each
 * rule gets its own model check, which judges only the transitions that rule governs and, where the service departs
 * from the model on another rule's transition, takes the service's word for it and goes on. So one deviation fails
 * its own rule only, whatever sequence exposes it.
 */
interface ModelSession {
  state: 'open' | 'closed' | 'gone';
  readonly createdAt: number;
  lastUse: number;
  /** How it stopped holding a slot: closed while open, or timed out. */
  freedBy?: 'close' | 'timeout';
}

interface Model {
  now: number;
  readonly timeout: number;
  readonly poolSize: number;
  readonly sessions: ModelSession[];
  readonly tokens: { issuedAt: number; state: 'valid' | 'gone' }[];
  /** When a SessionCreateRQ got a gateway's error: a session opened behind the page may hold a slot until its timeout. */
  readonly hidden: number[];
}

interface Real {
  readonly ctx: CheckContext;
  /** The rule this run judges (its deviations end a sequence); none in the survey, which only records. */
  readonly judge: RuleId | undefined;
  /** The rules whose transitions the service missed in this run, or which it could not judge (the survey reads them). */
  readonly deviations?: Set<RuleId>;
  readonly sa: SessionAccount;
  readonly sessions: (OpenSession | undefined)[];
  readonly tokens: string[];
  readonly actions: readonly string[];
}

const LIFETIME = limits.accessTokenLifetimeSeconds;

/** Whether the model says a session is open, expired, closed — or, at exactly the timeout, cannot say. */
function stateOf(m: Model, s: ModelSession): 'open' | 'expired' | 'closed' | 'boundary' | 'gone' {
  if (s.state !== 'open') return s.state;
  const idle = m.now - s.lastUse;
  return idle < m.timeout ? 'open' : idle === m.timeout ? 'boundary' : 'expired';
}

/** Open now only because a request kept it alive: without one it would have expired (SESS-01's transition). */
function keptAlive(m: Readonly<Model>, s: ModelSession): boolean {
  return s.lastUse > s.createdAt && m.now - s.createdAt >= m.timeout;
}

/**
 * The service opened a session although the model's pool is full. A held session that is open only thanks to a
 * keep-alive may have expired on the service (SESS-01's deviation): its token says. Returns the slots held after that.
 */
async function keptAliveHold(m: Model, r: Real, step: string): Promise<number> {
  for (const [i, s] of m.sessions.entries()) {
    const session = r.sessions[i];
    if (stateOf(m, s) !== 'open' || !keptAlive(m, s) || !session) continue;
    const { answer } = await callInSession(r.ctx, session, r.actions[0]);
    if (sessionVerdict(answer, `${step}: the token of a kept-alive session`) === 'accepted') {
      s.lastUse = m.now;
      continue;
    }
    deviation(r, 'SESS-01', step, `accepted: the session was kept alive (idle ${m.now - s.lastUse} s of ${m.timeout} s)`, describeAnswer(soap(answer)));
    s.state = 'gone';
  }
  return live(m).length;
}

function live(m: Model): ModelSession[] {
  return m.sessions.filter((s) => stateOf(m, s) === 'open');
}

function deviation(r: Real, rule: RuleId, step: string, expected: string, actual: string): void {
  r.deviations?.add(rule);
  if (rule === r.judge) throw new CheckFailure(`the service left the state table at: ${step}`, { expected, actual });
}

class Create implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(m: Model, r: Real) {
    for (const s of m.sessions) if (s.state === 'open' && stateOf(m, s) === 'expired') s.freedBy = 'timeout';
    const pages = sessionLedger('cert', r.sa.account.pcc).hidden;
    const x = await sessionCreate(r.ctx, 'cert', r.sa.account);
    for (let i = sessionLedger('cert', r.sa.account.pcc).hidden - pages; i > 0; i--) m.hidden.push(m.now);
    const verdict = createVerdict(r.ctx, x, this.toString());
    const holding = live(m).length;
    const boundary = m.sessions.some((s) => stateOf(m, s) === 'boundary');
    if (verdict === 'opened') {
      if (holding >= m.poolSize && (await keptAliveHold(m, r, this.toString())) >= m.poolSize) {
        deviation(r, 'SESS-04', this.toString(), `a refusal: ${holding} of ${m.poolSize} slots are held`, 'a new session');
      }
      r.sessions.push(x.session);
      m.sessions.push({ state: 'open', createdAt: m.now, lastUse: m.now });
      return;
    }
    r.sessions.push(undefined);
    m.sessions.push({ state: 'gone', createdAt: m.now, lastUse: m.now });
    if (holding < m.poolSize && !boundary) await this.#whyFull(m, r, holding);
  }

  /**
   * The service counts a session the model has freed. Its token tells which rule's transition it missed: still
   * accepted, the session was never closed (SESS-02) or never expired (SESS-03), and the model takes the service's word;
   * refused, it ended but kept its slot: SESS-02 when a close freed it, SESS-04 when its timeout did. When both kinds
   * of freed sessions remain, the refusal cannot be laid at one rule's door (the directed checks judge each alone).
   */
  async #whyFull(m: Model, r: Real, holding: number): Promise<void> {
    const freed = m.sessions.flatMap((s, i) => (s.freedBy && r.sessions[i] ? [{ s, session: r.sessions[i]! }] : []));
    for (const { s, session } of freed) {
      const { answer } = await callInSession(r.ctx, session, r.actions[0]);
      if (sessionVerdict(answer, `${this.toString()}: the token of a ${s.freedBy === 'close' ? 'closed' : 'timed-out'} session`) !== 'accepted') continue;
      deviation(r, s.freedBy === 'close' ? 'SESS-02' : 'SESS-03', this.toString(), `a refusal of the token of a ${s.freedBy === 'close' ? 'closed' : 'timed-out'} session`, 'accepted');
      s.state = 'open';
      s.lastUse = m.now;
      delete s.freedBy;
    }
    const held = live(m).length;
    if (held >= m.poolSize) return;
    const kinds = new Set(m.sessions.flatMap((s) => (s.freedBy ? [s.freedBy] : [])));
    if (kinds.size !== 1) return;
    const owner: RuleId = kinds.has('close') ? 'SESS-02' : 'SESS-04';
    // The sequence's TokenCreateRQ tokens hold no slot (a sessionless token allocates no session), but a service that
    // breaks that (STOK-01's to judge: suites/service/soap-tokens.test.ts) fills the pool with them: when they could
    // fill the slots the model has free, the refusal says nothing of the freed sessions. Other sequences judge them.
    const tokens = m.tokens.filter((t) => t.state === 'valid').length;
    if (held + tokens >= m.poolSize) {
      if (owner === r.judge) r.ctx.note(`${this.toString()} was refused with ${held} of ${m.poolSize} slots held and ${tokens} TokenCreateRQ token(s) of the sequence valid: not judged on ${owner}, as a service that allocated sessions to those tokens (STOK-01's deviation) would refuse it too`);
      return;
    }
    if (m.hidden.some((at) => m.now - at <= m.timeout)) {
      // A session opened behind a gateway's page (a SessionCreateRQ answered 502 or 504), not timed out yet, may hold
      // the slot: the refusal is not judged.
      if (owner === r.judge) r.ctx.unchecked(owner === 'SESS-02' ? 'SESS-02.slot-released' : 'SESS-04.timeout-frees-slot', `${this.toString()} was refused with ${holding} of ${m.poolSize} slots held, and a SessionCreateRQ before it got a gateway's error: a session opened behind that page may hold the slot`);
      return;
    }
    deviation(r, owner, this.toString(), `a new session: ${holding} of ${m.poolSize} slots are held`, 'a pool refusal');
  }
  toString = () => 'create';
}

/** The session `back` places from the newest (wrapping): short sequences then mostly act on the same sessions. */
function recent(m: Readonly<Model>, back: number): number {
  return m.sessions.length - 1 - (back % m.sessions.length);
}

class Call implements fc.AsyncCommand<Model, Real> {
  constructor(readonly index: number, readonly action: number) {}
  check = (m: Readonly<Model>) => m.sessions.length > 0;
  async run(m: Model, r: Real) {
    const i = recent(m, this.index);
    const s = m.sessions[i]!;
    const session = r.sessions[i];
    if (!session) return;
    const action = r.actions[this.action % r.actions.length];
    const { answer } = await callInSession(r.ctx, session, action);
    const verdict = sessionVerdict(answer, this.toString());
    const state = stateOf(m, s);
    if (state === 'open' && verdict === 'refused') deviation(r, 'SESS-01', this.toString(), `accepted: the session is open (idle ${m.now - s.lastUse} s of ${m.timeout} s)`, describeAnswer(soap(answer)));
    if (state === 'closed' && verdict === 'accepted') deviation(r, 'SESS-02', this.toString(), 'a refusal: the session is closed', 'accepted');
    if (state === 'expired' && verdict === 'accepted') deviation(r, 'SESS-03', this.toString(), `a refusal: the session expired (idle ${m.now - s.lastUse} s of ${m.timeout} s)`, 'accepted');
    // Take the service's word for it, and go on. A closed session's token that an action still accepts says no more
    // than that: whether the session still holds its slot is for the next create to tell (see #whyFull, which asks the
    // session probe), so the model keeps it closed.
    if (verdict === 'accepted' && state === 'closed') return;
    if (verdict === 'accepted') {
      s.state = 'open';
      s.lastUse = m.now;
      delete s.freedBy;
    } else if (state === 'open' || state === 'boundary') {
      s.state = 'gone';
    }
  }
  toString = () => `call(newest-${this.index}, action ${this.action})`;
}

class Close implements fc.AsyncCommand<Model, Real> {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.sessions.length > 0;
  async run(m: Model, r: Real) {
    const i = recent(m, this.index);
    const s = m.sessions[i]!;
    const session = r.sessions[i];
    if (!session) return;
    const x = await sessionClose(r.ctx, session);
    const answer = soapAnswerOf(r.ctx, x);
    const state = stateOf(m, s);
    // Closing a closed or expired session: the document does not say what it answers; only the open case is judged.
    if (state === 'open') {
      if (sessionVerdict(answer, this.toString()) === 'refused') {
        // Open only thanks to a request that should have kept it alive: the keep-alive (SESS-01) is what failed.
        deviation(r, keptAlive(m, s) ? 'SESS-01' : 'SESS-02', this.toString(), `SessionCloseRS: the session is open (idle ${m.now - s.lastUse} s of ${m.timeout} s)`, describeAnswer(soap(answer)));
        s.state = 'gone';
        return;
      }
      s.state = 'closed';
      s.freedBy = 'close';
    } else if (state === 'boundary' && answer.kind === 'success') {
      s.state = 'closed';
      s.freedBy = 'close';
    }
  }
  toString = () => `close(newest-${this.index})`;
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

class TokenCreate implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(m: Model, r: Real) {
    let token: string;
    try {
      token = await obtainSoapToken(r.ctx, 'cert', r.sa.account);
    } catch (err) {
      // No TokenCreateRQ token (STOK-01's to judge): only LIFE-01's transitions need one. The other rules' sequences go
      // on without it; the survey cannot vouch for LIFE-01, whose check then runs on its own (and is skipped).
      if (!(err instanceof PrerequisiteFailed) || r.judge === 'LIFE-01') throw err;
      r.deviations?.add('LIFE-01');
      return;
    }
    // A token the service issued before, handed out again, is that token with its age (one call, one token, and a
    // refresh that works, are REST-04's and LIFE-02's to judge, not this model's): the model takes the service's word.
    const before = r.tokens.indexOf(token);
    r.tokens.push(token);
    m.tokens.push(before >= 0 ? { ...m.tokens[before]! } : { issuedAt: m.now, state: 'valid' });
  }
  toString = () => 'tokenCreate';
}

class UseToken implements fc.AsyncCommand<Model, Real> {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.tokens.length > 0;
  async run(m: Model, r: Real) {
    const i = this.index % m.tokens.length;
    const t = m.tokens[i]!;
    if (t.state === 'gone') return;
    const { answer } = await callSoap(r.ctx, 'cert', r.tokens[i]!);
    if (answer.kind !== 'success' && answer.kind !== 'refused') throw new Inconclusive(`the sessionless probe answered ${describeAnswer(soap(answer))} to a TokenCreateRQ token`);
    const age = m.now - t.issuedAt;
    if (age < LIFETIME && answer.kind === 'refused') deviation(r, 'LIFE-01', this.toString(), `accepted: the token is ${age} s old (lifetime ${LIFETIME} s)`, describeAnswer(soap(answer)));
    if (age > LIFETIME && answer.kind === 'success') deviation(r, 'LIFE-01', this.toString(), `a refusal: the token is ${age} s old (lifetime ${LIFETIME} s)`, 'accepted');
    if (answer.kind === 'refused') t.state = 'gone';
  }
  toString = () => `useToken(#${this.index})`;
}

const TIMEOUT_MODEL = 600;
const POOL_MODEL = 2;
/**
 * The commands, weighted so that the sequences that expose a session deviation are common: calls and closes mostly
 * on the newest sessions, creates enough to fill the small pool, and clock moves in fractions of the timeout (two
 * moves of 0.55 × timeout with a call between them cross the original deadline of a kept-alive session), its exact
 * edges, and the sessionless token lifetime.
 */
/** Mostly moves within the timeout (a call between two of them keeps a session past its first deadline). */
function advance(): fc.Arbitrary<Advance> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(0.3, 0.55, 0.7).map((f) => Math.round(f * TIMEOUT_MODEL)) },
    { weight: 2, arbitrary: fc.constantFrom(0.1, 0.9, 1.5, 2.5).map((f) => Math.round(f * TIMEOUT_MODEL)) },
    { weight: 1, arbitrary: fc.constantFrom(TIMEOUT_MODEL - 1, TIMEOUT_MODEL + 1) },
    { weight: 1, arbitrary: fc.constantFrom(LIFETIME - 1, LIFETIME + 1) },
  ).map((seconds) => new Advance(seconds));
}

const commands = [
  fc.constant(new Create()),
  fc.constant(new Create()),
  fc.tuple(fc.nat(2), fc.nat(5)).map(([i, a]) => new Call(i, a)),
  fc.tuple(fc.nat(2), fc.nat(5)).map(([i, a]) => new Call(i, a)),
  fc.tuple(fc.nat(2), fc.nat(5)).map(([i, a]) => new Call(i, a)),
  fc.nat(2).map((i) => new Close(i)),
  fc.nat(2).map((i) => new Close(i)),
  advance(),
  advance(),
  advance(),
  fc.constant(new TokenCreate()),
  fc.nat(3).map((i) => new UseToken(i)),
];

/**
 * The actions a model call may send with a session token: the session probe and the declared session actions (found
 * with a session of another fresh account, so that the model's account starts with an empty pool). Found once per
 * target (they are the target's, not the account's), not again for every sequence.
 */
const modelActionsByTarget = new WeakMap<object, Promise<string[]>>();

function modelActions(ctx: CheckContext): Promise<string[]> {
  let actions = modelActionsByTarget.get(ctx.target);
  if (!actions) {
    actions = findModelActions(ctx);
    actions.catch(() => undefined);
    modelActionsByTarget.set(ctx.target, actions);
  }
  return actions;
}

async function findModelActions(ctx: CheckContext): Promise<string[]> {
  // A fresh account of its own: the main account's pool may be full of sessions a deviation kept (SESS-02's, say).
  const session = await openSession(ctx, 'cert', (await sessionAccount(ctx)).account);
  try {
    await acceptedSession(ctx, session);
    return [(await soapProbe(ctx, 'soapSession')).action, ...(await otherSessionActions(ctx, session))];
  } finally {
    await sessionClose(ctx, session);
  }
}

const MODEL_RUNS = 25;
const sequences = fc.commands(commands, { maxCommands: 20, size: 'medium' });

/**
 * The sequences every run tries first, whatever the seed and `--runs`: the shortest that show each transition of the
 * state tables (a call keeps a session past its first deadline; a closed session's token is refused and its slot
 * released; a session stays open beside a newer one; an idle session expires and frees its slot; a full pool refuses;
 * a sessionless token expires), so that
 * the verdict on a deviation rests on none of the random ones.
 */
const HALF_TIMEOUT = Math.round(0.55 * TIMEOUT_MODEL);
const EXAMPLES: readonly (readonly fc.AsyncCommand<Model, Real>[])[] = [
  [new Create(), new Advance(HALF_TIMEOUT), new Call(0, 0), new Advance(HALF_TIMEOUT), new Call(0, 1)],
  [new Create(), new Create(), new Close(0), new Call(0, 0), new Create()],
  // A session stays open when the caller opens another (a service that kept one session per account ended the first).
  [new Create(), new Create(), new Call(1, 0)],
  [new Create(), new Create(), new Advance(TIMEOUT_MODEL + 1), new Call(0, 0), new Create()],
  [new Create(), new Create(), new Create()],
  [new TokenCreate(), new Advance(LIFETIME + 1), new UseToken(0)],
];

/** One sequence against a fresh account: the model judges `judge`'s transitions, and records every rule's deviations. */
async function modelRun(ctx: CheckContext, cmds: Iterable<fc.AsyncCommand<Model, Real>>, judge: RuleId | undefined, deviations?: Set<RuleId>): Promise<void> {
  const sa = await sessionAccount(ctx, { poolSize: POOL_MODEL, timeoutSeconds: TIMEOUT_MODEL });
  const actions = await modelActions(ctx);
  const real: Real = { ctx, judge, sa, sessions: [], tokens: [], actions, ...(deviations && { deviations }) };
  const model: Model = { now: 0, timeout: TIMEOUT_MODEL, poolSize: POOL_MODEL, sessions: [], tokens: [], hidden: [] };
  try {
    await fc.asyncModelRun(() => ({ model, real }), cmds);
  } finally {
    await closeAll(ctx, real.sessions.filter((s, i): s is OpenSession => s !== undefined && model.sessions[i]?.state === 'open'));
  }
}

/**
 * The survey: the sequences every model check draws (the same arbitrary, seed and number of runs), run once for all
 * of them, judging none and recording which rules' transitions the service missed. A rule the survey saw no deviation
 * of holds on exactly the sequences its own check would run; only a rule with one runs its own property, which stops
 * at the deviation and shrinks it. One run of the model instead of five on a conforming service, the same verdicts.
 */
const surveys = new WeakMap<object, Promise<ReadonlySet<RuleId>>>();

function survey(ctx: CheckContext): Promise<ReadonlySet<RuleId>> {
  let found = surveys.get(ctx.target);
  if (!found) {
    const run = runConfig();
    const deviations = new Set<RuleId>();
    found = fc.check(fc.asyncProperty(sequences, (cmds) => modelRun(ctx, cmds, undefined, deviations)), {
      seed: run.seed,
      numRuns: withExamples(scaledRuns(MODEL_RUNS, run.runs), EXAMPLES),
      endOnFailure: true,
      examples: EXAMPLES.map((e): [Iterable<fc.AsyncCommand<Model, Real>>] => [e]),
    }).then((details) => {
      // An error that is not a deviation (no answer, an inconclusive one) is the checks' verdict: they run on their own.
      if (details.failed) for (const rule of MODEL_RULES) deviations.add(rule);
      return deviations;
    });
    surveys.set(ctx.target, found);
  }
  return found;
}

const MODEL_RULES: readonly RuleId[] = ['SESS-01', 'SESS-02', 'SESS-03', 'SESS-04', 'LIFE-01'];

function modelCheck(judge: RuleId, title: string, clauses: readonly string[]): void {
  ruleProperty(judge, title, sequences, async (ctx, cmds) => {
    if (!ctx.target.control) return ctx.notApplicable('the model moves the clock, which only the simulator offers');
    // Replaying a counterexample, or a rule the survey saw deviate: this check's own run judges it.
    const replaying = runConfig().replay !== undefined;
    if (!replaying && !(await survey(ctx)).has(judge)) return;
    await modelRun(ctx, cmds, judge);
  }, { numRuns: MODEL_RUNS, clauses, examples: EXAMPLES });
}

modelCheck('SESS-01', 'random sequences of session and token operations: a request before the timeout keeps the session open', ['SESS-01.keepalive-ping', 'SESS-01.keepalive-any-request']);
modelCheck('SESS-02', 'random sequences of session and token operations: a closed session\'s token is refused and its slot released', ['SESS-02.token-refused', 'SESS-02.slot-released']);
modelCheck('SESS-03', 'random sequences of session and token operations: an idle session expires after its timeout', ['SESS-03.account-timeout']);
modelCheck('SESS-04', 'random sequences of session and token operations: the pool refuses a session only when full, and timeouts free slots', ['SESS-04.pool-full-refused', 'SESS-04.unclosed-stay-allocated', 'SESS-04.timeout-frees-slot']);
modelCheck('LIFE-01', 'random sequences of session and token operations: a TokenCreateRQ token lives for expires_in seconds', ['LIFE-01.soap-sessionless']);

auditExchanges('session checks');
