import { callRefusal, clientTest, op, type ClientContext } from '../../harness/checks/client.ts';
import { CheckFailure, failOn, PrerequisiteFailed, registerPassword } from '../../harness/checks/index.ts';
import { closeToken, sess05BodyProblem, sess05HeaderProblem, sess06Problem, sess07Problem, sess08PoolProblem, sess08StormProblem, type Sess06Clause, type SessionSpan } from '../../harness/judges/index.ts';
import { classifySoap } from '../../harness/classify/index.ts';
import { parseEnvelope } from '../../harness/soap/index.ts';
import { DEFAULT_REST_DOMAIN, DEFAULT_SOAP_DOMAIN } from '../../harness/catalog/index.ts';
import type { SimEvent } from '../../harness/sim/index.ts';
import type { Account } from '../../harness/targets/index.ts';
import { envelopes } from './support/events.ts';

const closes = (events: readonly SimEvent[]) => envelopes(events).filter((x) => x.envelope?.action === 'SessionCloseRQ');
const sessionTokens = (events: readonly SimEvent[]) => events.filter((e) => e.tokenKind === 'session' && e.tokenIssued).map((e) => e.tokenIssued as string);
const closedToken = (x: ReturnType<typeof closes>[number]) => (x.envelope ? closeToken(x.envelope) : undefined);

async function openOne(ctx: ClientContext): Promise<string> {
  const { session } = await op('soap.session.open', () => ctx.client.openSession({ environment: 'cert' }));
  await op('soap.session.call', () => ctx.client.sessionCall({ session, action: 'OTA_PingRQ' }));
  return session;
}

clientTest('SESS-05', 'SessionCloseRQ carries ConversationId, CPAId and the token, and a body with POS/Source@PseudoCityCode, TimeStamp and Version', async (ctx) => {
  await ctx.configure();
  const session = await openOne(ctx);
  await op('soap.session.close', () => ctx.client.closeSession({ session }));
  // A client may keep a session it was told to close in a pool of its own and close it at shutdown at the latest
  // (docs/driver-protocol.md): the SessionCloseRQ judged is the first one, sent then or before.
  await ctx.client.shutdown();
  const events = await ctx.events();
  const close = closes(events)[0];
  if (!close?.envelope) throw new PrerequisiteFailed('the client sent no SessionCloseRQ when asked to close the session and to shut down (see SESS-06)');
  // The judges observe uses too (harness/judges); what only a driven client shows — which token is the session's —
  // enters as a fact.
  const token = sessionTokens(events)[0];
  failOn(sess05HeaderProblem(close.envelope, { is: closedToken(close) === token }));
  failOn(sess05BodyProblem(close.envelope));
}, { clauses: ["SESS-05.header", "SESS-05.body"], needs: 'token' });

/** The service answered the request with a refusal of its token (harness/classify says `invalid-token`). */
function isInvalidToken(e: SimEvent): boolean {
  const parsed = parseEnvelope(e.answer ?? '');
  const answer = classifySoap({ status: e.status, envelope: parsed.ok ? parsed.envelope : undefined });
  return answer.kind === 'refused' && answer.why === 'invalid-token';
}

/**
 * Fails (SESS-06's judge, harness/judges) unless every session the simulator issued has a SessionCloseRQ (tokens that
 * got InvalidSecurityToken excepted). When the client did send a `SessionCloseRQ` body for each session left open, but
 * the service refused them for what another rule judges (an unknown eb:Action, the token outside
 * wsse:BinarySecurityToken: SOAP-04), the rule cannot be judged: `skipped`, naming that rule. For
 * `SESS-06.after-failure` every session of the check counts as one with a failed call: its workload opens one session
 * and makes one call in it fail.
 */
function expectAllClosed(events: readonly SimEvent[], clause: Sess06Clause): void {
  const closed = new Set(closes(events).map(closedToken));
  // A session whose token the service refused as invalid is over: SESS-07 forbids sending that token again.
  const ended = new Set(events.filter((e) => e.tokenUsed !== undefined && e.outcome === 'soap-fault' && isInvalidToken(e)).map((e) => e.tokenUsed));
  const sessions = sessionTokens(events).map((t) => ({ closed: closed.has(t), ended: ended.has(t), failedCall: clause === 'SESS-06.after-failure' }));
  const open = sessions.filter((s) => !s.closed && !s.ended);
  const attempts = envelopes(events).filter((x) => x.envelope?.body.root?.localName === 'SessionCloseRQ' && x.event.outcome === 'soap-fault').map((x) => x.event);
  const refusal = open.length > 0 && attempts.length >= open.length ? callRefusal(attempts, events) : undefined;
  if (refusal) throw new PrerequisiteFailed(`the client sent a SessionCloseRQ for each of the ${open.length} session(s) left open, but ${refusal.reason}`, refusal.after);
  failOn(sess06Problem(clause, sessions));
}

clientTest('SESS-06', 'the client closes the sessions it opened at the end of its work', async (ctx) => {
  await ctx.configure();
  const a = await openOne(ctx);
  const b = await openOne(ctx);
  await op('soap.session.close', () => ctx.client.closeSession({ session: a }));
  await op('soap.session.close', () => ctx.client.closeSession({ session: b }));
  await ctx.client.shutdown();
  expectAllClosed(await ctx.events(), 'SESS-06.end-of-work');
}, { clauses: ["SESS-06.end-of-work"], needs: 'token' });

clientTest('SESS-06', 'the client closes every open session at shutdown', async (ctx) => {
  await ctx.configure();
  await openOne(ctx);
  await openOne(ctx);
  await ctx.client.shutdown();
  expectAllClosed(await ctx.events(), 'SESS-06.shutdown');
}, { clauses: ["SESS-06.shutdown"], needs: 'token' });

clientTest('SESS-06', 'the client closes a session when a call inside it failed', async (ctx) => {
  const without = ctx.sim.extraAccounts.noAmendment;
  await ctx.configure({ accounts: { cert: without }, environments: ['cert'] });
  const { session } = await op('soap.session.open', () => ctx.client.openSession({ environment: 'cert' }));
  const failed = await op('soap.session.call', () => ctx.client.sessionCall({ session, action: 'BargainFinderMaxRQ' })).then(() => false, () => true);
  if (!failed) throw new PrerequisiteFailed('the call the simulator refuses (an action the account has no amendment for) did not fail');
  // "A server-side session is allocated and must be closed": the document does not say when. The session is still
  // open after the refused call, so a client may go on using it and close it at the end of its work: what this clause
  // catches is a failure that makes the client lose the session, so that it is never closed, even at shutdown.
  await ctx.client.shutdown();
  const events = await ctx.events();
  // The call must fail for the account's missing amendment: a call refused for what another rule judges (its token
  // outside wsse:BinarySecurityToken, say) got an invalid-token answer, after which the client may not close.
  const refusal = callRefusal(events);
  if (refusal) throw new PrerequisiteFailed(refusal.reason, refusal.after);
  expectAllClosed(events, 'SESS-06.after-failure');
}, { clauses: ["SESS-06.after-failure"], needs: 'token' });

clientTest('SESS-07', 'after Client.InvalidSecurityToken the client never sends that token again', async (ctx) => {
  await ctx.configure();
  const session = await openOne(ctx);
  const token = sessionTokens(await ctx.events())[0];
  if (!token) throw new PrerequisiteFailed('no session token was issued');
  await ctx.sim.revokeToken(token);
  await op('soap.session.call', () => ctx.client.sessionCall({ session, action: 'OTA_PingRQ' })).catch(() => undefined);
  await op('soap.session.call', () => ctx.client.sessionCall({ session, action: 'OTA_PingRQ' })).catch(() => undefined);
  await op('soap.session.close', () => ctx.client.closeSession({ session })).catch(() => undefined);
  await ctx.client.shutdown();
  const uses = (await ctx.events()).filter((e) => e.tokenUsed === token);
  const refused = uses.findIndex((e) => e.outcome === 'soap-fault' || e.outcome === 'api-refused-token');
  if (refused < 0) throw new CheckFailure('the client did not use the session again after it was invalidated', { expected: 'a call that gets Client.InvalidSecurityToken', actual: `${uses.length} uses` });
  failOn(sess07Problem(uses.slice(refused + 1).map((e) => e.action ?? e.path)));
}, { clauses: ["SESS-07.no-reuse"], needs: 'token' });

/** An account with a small session pool, so the client meets a full pool. */
async function smallPoolAccount(ctx: ClientContext, poolSize: number): Promise<Account> {
  const account: Account = { epr: `POOL${poolSize}`, pcc: 'PL01', password: `pool-${poolSize}-secret`, restDomain: DEFAULT_REST_DOMAIN, soapDomain: DEFAULT_SOAP_DOMAIN };
  registerPassword(account.password);
  await ctx.sim.addAccount('cert', { ...account, poolSize });
  return account;
}

/** The sessions the simulator issued, from the event that issued each to the first SessionCloseRQ with its token, in event order. */
function sessionSpans(events: readonly SimEvent[]): SessionSpan[] {
  const closed = new Map<string, number>();
  for (const x of closes(events)) {
    const t = closedToken(x);
    if (t && !closed.has(t)) closed.set(t, x.event.seq);
  }
  return events.filter((e) => e.tokenKind === 'session' && e.tokenIssued).map((e) => {
    const ended = closed.get(e.tokenIssued as string);
    return { opened: e.seq, ...(ended !== undefined && { ended }) };
  });
}

clientTest('SESS-08', 'the client never holds more open sessions than its pool allows', async (ctx) => {
  const pool = 2;
  await ctx.configure({ sessionPoolSize: pool, environments: ['cert'] });
  const results = await Promise.allSettled(Array.from({ length: pool + 2 }, () => op('soap.session.open', () => ctx.client.openSession({ environment: 'cert' }))));
  const unsupported = results.find((r): r is PromiseRejectedResult => r.status === 'rejected' && r.reason instanceof PrerequisiteFailed);
  if (results.every((r) => r.status === 'rejected')) throw unsupported?.reason ?? new PrerequisiteFailed('the client opened no session');
  failOn(sess08PoolProblem(pool, sessionSpans(await ctx.events()), 'CERT'));
}, { clauses: ["SESS-08.pool-bound"], needs: 'token' });

clientTest('SESS-08', 'the client answers a pool-full refusal without a retry storm', async (ctx) => {
  const account = await smallPoolAccount(ctx, 1);
  // The client waits its back-offs for real here, so that a retry after a back-off (none of a storm: the judge's own
  // words) is told from one sent at once; the simulator's clock runs with real time.
  await ctx.configure({ accounts: { cert: account }, sessionPoolSize: 3, environments: ['cert'], realClock: true });
  await op('soap.session.open', () => ctx.client.openSession({ environment: 'cert' }));
  await op('soap.session.open', () => ctx.client.openSession({ environment: 'cert' })).catch(() => undefined);
  // With a pool of one held by the first session, every SessionCreateRQ after the first is refused for a full pool, and
  // all of them answer the one request to open a second session: each retry's pause is the time since the attempt
  // before it (the simulator answers a refusal at once).
  const creates = envelopes(await ctx.events()).filter((x) => x.envelope?.action === 'SessionCreateRQ').map((x) => x.event);
  failOn(sess08StormProblem(creates.slice(1).map((e, i) => ({ pauseMs: e.at - creates[i]!.at }))));
}, { clauses: ["SESS-08.no-retry-storm"], needs: 'token' });
