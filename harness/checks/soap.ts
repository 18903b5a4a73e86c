import { onNewRun } from '../run-scope.ts';
import {
  buildRequest, makeRequestHeader, maskEnvelope, otaPingRQBody, parseEnvelope, sessionCloseRQBody, sessionCreateRQBody,
  tokenCreateRQBody, usernameToken, type EnvelopeValidator, type RequestSecurity, type RequestStyle, type SoapBody,
  type SchemaName, type Verdict,
} from '../soap/index.ts';
import { classifySoap, describeSoapAnswer } from '../classify/index.ts';
import { issuedToken } from '../judges/index.ts';
import type { Environment } from '../catalog/index.ts';
import type { Account, HttpRequest } from '../targets/index.ts';
import { gatewayError, SERVER_ERROR_RESENDS } from '../targets/throttle.ts';
import { creates } from './budget.ts';
import { freshAccountLike } from './fresh-account.ts';
import { journalSoap, targetSeconds } from './journal.ts';
import { creatingSession, registerSession, unregisterSession } from './registry.ts';
import { runConfig } from './target.ts';
import type { SoapExchange } from './soap-exchange.ts';

export type { SoapExchange } from './soap-exchange.ts';
import type { CheckContext } from './rule-test.ts';
import { PrerequisiteFailed } from './errors.ts';
import { registerPassword } from './secrets.ts';

let sequence = 0;
const next = () => `${process.pid}-${++sequence}`;

export function newConversationId(): string {
  return `tds-conformance-${next()}`;
}

export interface SoapCall {
  readonly action: string;
  readonly security: RequestSecurity;
  readonly body: SoapBody;
  readonly conversationId?: string;
  readonly cpaId?: string;
  readonly messageId?: string;
  readonly version?: '1.0' | '2.0.0';
  readonly style?: RequestStyle;
  readonly timeoutMs?: number;
}

export function soapUrl(ctx: CheckContext, env: Environment): string {
  const e = ctx.target.environments[env];
  if (!e) return ctx.notApplicable(`the target has no ${env.toUpperCase()} environment configured`);
  return e.soapUrl;
}

export function soapAccount(ctx: CheckContext, env: Environment): Account {
  const a = ctx.target.accounts[env];
  if (!a) return ctx.notApplicable(`the target has no ${env.toUpperCase()} account configured`);
  return a;
}

/** Posts one SOAP request to the environment's SOAP URL and parses the answer. */
export async function soapCall(ctx: CheckContext, env: Environment, call: SoapCall): Promise<SoapExchange> {
  const conversationId = call.conversationId ?? newConversationId();
  const messageId = call.messageId ?? `${next()}@tds-conformance`;
  const cpaId = call.cpaId ?? ctx.target.accounts[env]?.pcc ?? 'UNKNOWN';
  const header = makeRequestHeader({ action: call.action, cpaId, conversationId, messageId, now: new Date(), ...(call.version && { version: call.version }) });
  const xml = buildRequest({ header, security: call.security, body: call.body, ...(call.style && { style: call.style }) });
  const sent = await postEnvelope(ctx, env, xml, { conversationId, messageId, cpaId }, call.timeoutMs);
  const x: SoapExchange = { ...sent, request: { ...sent.request, action: call.action } };
  // A request with an open session's token (its close aside) that the service served (an envelope, no fault).
  const token = call.security.kind === 'binarySecurityToken' ? call.security.token : undefined;
  const served = x.envelope !== undefined && !x.envelope.fault;
  if (token !== undefined && call.action !== 'SessionCloseRQ' && served && openSessions.has(token)) usedSessions.add(token);
  // A TokenCreateRQ token's first served request: counted in its caller's ledger once.
  const caller = token !== undefined && served ? soapTokenCallers.get(token) : undefined;
  if (caller !== undefined) {
    soapTokenCallers.delete(token!);
    ledger(caller.env, caller.cpaId).tokensUsed++;
  }
  journalSoap(x, targetSeconds(ctx.target));
  // What the call created on the target, for the report's resource counts.
  if (!x.envelope?.fault && responseToken(x)) {
    if (call.action === 'TokenCreateRQ') ctx.created({ tokens: 1 });
    if (call.action === 'SessionCreateRQ') ctx.created({ sessionsOpened: 1 });
  }
  return x;
}

/** Posts a raw body (any text) to the SOAP URL: for malformed requests. */
export async function postEnvelope(
  ctx: CheckContext,
  env: Environment,
  xml: string,
  ids: { conversationId: string; messageId: string; cpaId: string } = { conversationId: '', messageId: '', cpaId: '' },
  timeoutMs?: number,
): Promise<SoapExchange> {
  const request: HttpRequest = {
    method: 'POST',
    url: soapUrl(ctx, env),
    headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: 'OTA' },
    body: xml,
    ...(timeoutMs !== undefined && { timeoutMs }),
  };
  const creating = creates(request);
  const opensSession = creating === 'session';
  const post = async (): Promise<SoapExchange> => {
    let response = await ctx.http.request(request);
    if (opensSession) {
      // The transport resends any other request a gateway's error (502, 504) answered; a SessionCreateRQ is resent
      // here, each page counted in the caller's ledger: a session opened behind it would hold a slot unseen.
      for (let resent = 0; resent < SERVER_ERROR_RESENDS && gatewayError(response); resent++) {
        ledger(env, ids.cpaId).hidden++;
        response = { ...(await ctx.http.request(request)), resent: resent + 1 };
      }
    }
    const parsed = parseEnvelope(response.body);
    const x: SoapExchange = {
      request: { xml, ...ids },
      response,
      envelope: parsed.ok ? parsed.envelope : undefined,
      parseError: parsed.ok ? undefined : `${parsed.code}: ${parsed.message}`,
    };
    const token = x.envelope?.fault ? undefined : responseToken(x);
    if (token && opensSession) await track(ctx, { env, token, conversationId: ids.conversationId, cpaId: ids.cpaId });
    // An answer that may have granted a session the harness cannot read (a success status with no envelope it can
    // parse, or an envelope with neither a fault nor a token) hides that session as a gateway's page may: counted so.
    if (!token && opensSession && response.status >= 200 && response.status < 300 && !x.envelope?.fault) ledger(env, ids.cpaId).hidden++;
    if (token && creating === 'token') {
      ledger(env, ids.cpaId).tokens++;
      soapTokenCallers.set(token, { env, cpaId: ids.cpaId });
    }
    return x;
  };
  // A session-creating exchange is seen through to its registration, also by a worker being signalled meanwhile.
  return opensSession ? creatingSession(post) : post();
}

/** The token in the response's BinarySecurityToken, if any. */
export function responseToken(x: SoapExchange): string | undefined {
  return issuedToken(x.envelope);
}

/** A response envelope excerpt for evidence, passwords and tokens masked. */
export function excerpt(x: SoapExchange): string {
  return maskEnvelope(x.response.body).slice(0, 1500);
}

export function credentialsOf(account: Account): RequestSecurity {
  return usernameToken({ username: account.epr, password: account.password, organization: account.pcc, domain: account.soapDomain });
}

export async function tokenCreate(ctx: CheckContext, env: Environment, account: Account = soapAccount(ctx, env), call: Partial<SoapCall> = {}): Promise<SoapExchange> {
  return soapCall(ctx, env, { action: 'TokenCreateRQ', security: credentialsOf(account), body: tokenCreateRQBody(), cpaId: account.pcc, ...call });
}

/**
 * A SessionCreateRQ (`what`) refused for a full pool, as a missing prerequisite. A pool the run never opened a session
 * in is full of others' sessions (another application's): no rule of the service broke. Once the run opened (and
 * closed) some, slots not released may be SESS-02's or SESS-04's.
 */
export function noSessionSlot(env: Environment, pcc: string, what: string, code: string): PrerequisiteFailed {
  const mine = sessionLedger(env, pcc);
  if (mine.opened === 0 && mine.hidden === 0) {
    return new PrerequisiteFailed(`no session slot: ${what} was refused because the pool is full (${code}), and the run has opened no session of this account: sessions it did not open hold every slot (close them, wait for them to time out, or give the run an account of its own)${mine.tokens > 0 ? `, or the ${mine.tokens} TokenCreateRQ token(s) it obtained do (STOK-01)` : ''}`, mine.tokens > 0 ? ['STOK-01'] : []);
  }
  // TokenCreateRQ tokens the run obtained fill the pool too where the service allocates them a session (STOK-01).
  return new PrerequisiteFailed(`no session slot: ${what} was refused because the pool is full (${code}); close the account's other sessions or wait for them to time out`, mine.tokens > 0 ? ['SESS-02', 'SESS-04', 'STOK-01'] : ['SESS-02', 'SESS-04']);
}

/** What a token-creating answer lacked, as a missing prerequisite naming the rules that judge it. */
function noTokenFrom(ctx: CheckContext, action: 'TokenCreateRQ' | 'SessionCreateRQ', env: Environment, x: SoapExchange, account: Account | undefined): PrerequisiteFailed {
  const answer = classifySoap({ status: x.response.status, envelope: x.envelope, parseError: x.parseError }, ctx.target.faultCodes);
  const what = `${action} ${account ? `of the account ${account.epr}` : 'of the configured account'} in ${env.toUpperCase()}`;
  const own = action === 'TokenCreateRQ' ? 'STOK-01' : 'STOK-02';
  switch (answer.kind) {
    case 'pool-full':
      return noSessionSlot(env, (account ?? ctx.target.accounts[env])?.pcc ?? '', what, answer.code);
    case 'refused':
      return new PrerequisiteFailed(`${what} was refused (${answer.code}): the account did not authenticate on SOAP`, ['CRED-03', 'XPROTO-03']);
    case 'not-soap':
      return new PrerequisiteFailed(`${what} got no SOAP answer (${describeSoapAnswer(answer)})`, ['SOAP-02']);
    case 'success':
      return new PrerequisiteFailed(`${what} returned no token in wsse:BinarySecurityToken`, [own]);
    default:
      return new PrerequisiteFailed(`${what} got no token: ${describeSoapAnswer(answer)}`, [own]);
  }
}

/** A sessionless SOAP token for later checks; a target that gives none makes the check `skipped` (prerequisite). */
export async function obtainSoapToken(ctx: CheckContext, env: Environment, account?: Account): Promise<string> {
  const x = await tokenCreate(ctx, env, account);
  const token = x.envelope?.fault ? undefined : responseToken(x);
  if (!token) throw noTokenFrom(ctx, 'TokenCreateRQ', env, x, account);
  return token;
}

export interface OpenSession {
  readonly env: Environment;
  readonly token: string;
  readonly conversationId: string;
  readonly cpaId: string;
}

/** Sessions this worker opened and has not closed: closed at the end of each test file, also after a failure. */
const openSessions = new Map<string, { ctx: CheckContext; session: OpenSession }>();
/** The tokens of open sessions that have served a request (see {@link SessionLedger.closedUsed}). */
const usedSessions = new Set<string>();
/** The caller of each TokenCreateRQ token that has not served a request yet (see {@link SessionLedger.tokensUsed}). */
const soapTokenCallers = new Map<string, { readonly env: Environment; readonly cpaId: string }>();

/** What the harness did with the sessions of one caller (environment and PCC): state it established itself. */
export interface SessionLedger {
  /** Sessions the service opened for this harness. */
  readonly opened: number;
  /** Of those, the ones whose SessionCloseRQ the service answered without a fault. */
  readonly closed: number;
  /**
   * Of the closed ones, those that had served a request before their close (a request with the session's token the
   * service answered with an envelope and no fault): a service may treat them apart from sessions that served none (a
   * token cache that keeps a used session's slot).
   */
  readonly closedUsed: number;
  /** Sessions the harness holds open now. */
  readonly open: number;
  /**
   * SessionCreateRQs a gateway's error (502, 504) answered, or a success the harness could not read a token from (no
   * envelope it can parse, or neither a fault nor a token): each may hide a session opened behind it, which holds a
   * slot until it times out without the harness knowing its token.
   */
  readonly hidden: number;
  /** TokenCreateRQ tokens the service gave this caller (sessionless: they hold no slot of its pool). */
  readonly tokens: number;
  /**
   * Of those, the ones that have served a SOAP request (answered with an envelope and no fault): a service may
   * allocate a sessionless token's session at its first call, so used and unused tokens are told apart as closes are.
   */
  readonly tokensUsed: number;
  /**
   * What the SessionCreateRQs the service granted show of the pool: the most slots that closed sessions, or
   * TokenCreateRQ tokens, of each kind (that had served a request: `closedUsed`, `tokensUsed`; that had not:
   * `closedUnused`, `tokensUnused`) would have held at one of them beside the sessions the harness held then. A session
   * granted beside as many of one kind as the pool holds says closes of that kind release their slots, or that tokens of
   * that kind hold none, and of that kind only (a pool-full answer then needs another cause).
   */
  readonly grantedBeside: { readonly closedUsed: number; readonly closedUnused: number; readonly tokensUsed: number; readonly tokensUnused: number };
}

interface LedgerCounts {
  opened: number; closed: number; closedUsed: number; hidden: number; tokens: number; tokensUsed: number;
  grantedBeside: { closedUsed: number; closedUnused: number; tokensUsed: number; tokensUnused: number };
}
const noneGranted = () => ({ closedUsed: 0, closedUnused: 0, tokensUsed: 0, tokensUnused: 0 });

/**
 * Of the caller's TokenCreateRQ tokens, how many the record leaves able to hold a slot: each kind (used, unused) not
 * shown to hold none by a session granted beside as many of them as the pool holds.
 */
export function tokensThatMayHoldSlots(l: SessionLedger, pool: number): number {
  const g = l.grantedBeside;
  return (g.tokensUsed >= pool ? 0 : l.tokensUsed) + (g.tokensUnused >= pool ? 0 : l.tokens - l.tokensUsed);
}

/** Whether the record shows the caller's closes release their slots: each kind it closed (used, unused), beside as many as the pool holds. */
export function closesShownToRelease(l: SessionLedger, pool: number): boolean {
  const g = l.grantedBeside;
  return (l.closedUsed === 0 || g.closedUsed >= pool) && (l.closed - l.closedUsed === 0 || g.closedUnused >= pool);
}
const ledgers = new Map<string, LedgerCounts>();
const ledgerKey = (env: Environment, cpaId: string) => `${env}\u0000${cpaId}`;

/**
 * The harness's own record of a caller's sessions in this worker: how many it opened, how many the service confirmed
 * closed, how many it holds. On a live run (one worker) that is every session the run opened.
 */
export function sessionLedger(env: Environment, cpaId: string): SessionLedger {
  const l = ledgers.get(ledgerKey(env, cpaId));
  if (!l) return { opened: 0, closed: 0, closedUsed: 0, open: openCount(env, cpaId), hidden: 0, tokens: 0, tokensUsed: 0, grantedBeside: noneGranted() };
  return { opened: l.opened, closed: l.closed, closedUsed: l.closedUsed, open: openCount(env, cpaId), hidden: l.hidden, tokens: l.tokens, tokensUsed: l.tokensUsed, grantedBeside: { ...l.grantedBeside } };
}

/**
 * The first close this run saw, by difference, keep its slot, if one was: with a pool full of a check's sessions, one
 * of them was closed (the service confirming it) and the same SessionCreateRQ was still refused as full, whichever
 * check and account saw it. A SESS-02 and SESS-04 deviation in itself: the pool checks that cannot make the difference
 * in their own pool rest on it.
 */
let keptSlot: string | undefined;

export function recordKeptSlot(what: string): void {
  keptSlot ??= what;
}

export function keptSlotSeen(): string | undefined {
  return keptSlot;
}

function openCount(env: Environment, cpaId: string): number {
  let open = 0;
  for (const { session } of openSessions.values()) if (session.env === env && session.cpaId === cpaId) open++;
  return open;
}

function ledger(env: Environment, cpaId: string): LedgerCounts {
  const key = ledgerKey(env, cpaId);
  let l = ledgers.get(key);
  if (!l) ledgers.set(key, (l = { opened: 0, closed: 0, closedUsed: 0, hidden: 0, tokens: 0, tokensUsed: 0, grantedBeside: noneGranted() }));
  return l;
}

/**
 * Keeps a session the service just opened (whatever sent the `SessionCreateRQ`): known to this worker, and on a live
 * run registered with the main process before its token is used, so that the main process can close it if the run
 * is interrupted or this worker ends.
 */
async function track(ctx: CheckContext, session: OpenSession): Promise<void> {
  const l = ledger(session.env, session.cpaId);
  const held = openCount(session.env, session.cpaId);
  l.grantedBeside.closedUsed = Math.max(l.grantedBeside.closedUsed, held + l.closedUsed);
  l.grantedBeside.closedUnused = Math.max(l.grantedBeside.closedUnused, held + l.closed - l.closedUsed);
  l.grantedBeside.tokensUsed = Math.max(l.grantedBeside.tokensUsed, held + l.tokensUsed);
  l.grantedBeside.tokensUnused = Math.max(l.grantedBeside.tokensUnused, held + l.tokens - l.tokensUsed);
  openSessions.set(session.token, { ctx, session });
  l.opened++;
  await registerSession(runConfig(), session);
}

/** `SessionCreateRQ`; the session it opens, if any, is tracked (see {@link track}) and closed at the end of the test file. */
export async function sessionCreate(ctx: CheckContext, env: Environment, account: Account = soapAccount(ctx, env), call: Partial<SoapCall> = {}): Promise<SoapExchange & { session?: OpenSession }> {
  const conversationId = call.conversationId ?? newConversationId();
  const x = await soapCall(ctx, env, { action: 'SessionCreateRQ', security: credentialsOf(account), body: sessionCreateRQBody({ pseudoCityCode: account.pcc }), cpaId: account.pcc, conversationId, ...call });
  const token = x.envelope?.fault ? undefined : responseToken(x);
  const tracked = token === undefined ? undefined : openSessions.get(token)?.session;
  return tracked ? { ...x, session: tracked } : x;
}

/**
 * The other CERT accounts the target config declares (access.noAmendment, access.otherAgency, access.certOnly,
 * access.portal), each with a pool of its own: routes to a pool check where the main account's pool cannot show it
 * (full of what earlier checks left in it). Their passwords are registered for redaction.
 */
export function declaredCertAccounts(ctx: CheckContext): { readonly account: Account; readonly what: string }[] {
  const d = ctx.target.declared;
  const main = ctx.target.accounts.cert;
  const seen = new Set(main ? [`${main.epr}\u0000${main.pcc}`] : []);
  const out: { account: Account; what: string }[] = [];
  for (const account of [d.noAmendment?.account, d.otherAgency?.account, d.certOnly, d.portal?.account]) {
    if (!account || seen.has(`${account.epr}\u0000${account.pcc}`)) continue;
    seen.add(`${account.epr}\u0000${account.pcc}`);
    registerPassword(account.password);
    out.push({ account, what: `the account ${account.epr} (access)` });
  }
  return out;
}

/** Opens a session for later checks; none makes the check `skipped` (prerequisite), naming the rule to look at. */
export async function openSession(ctx: CheckContext, env: Environment, account?: Account): Promise<OpenSession> {
  const x = await sessionCreate(ctx, env, account);
  if (x.session) return x.session;
  const missing = noTokenFrom(ctx, 'SessionCreateRQ', env, x, account);
  // Another route: the configured account's pool is full (of sessions a deviation kept, SESS-02's or SESS-04's to
  // judge), and the target can make another account (the simulator) — a fresh one with the same PCC stands in.
  const full = classifySoap({ status: x.response.status, envelope: x.envelope, parseError: x.parseError }, ctx.target.faultCodes).kind === 'pool-full';
  const control = ctx.target.control;
  if (!full || account || !control) throw missing;
  const fresh = await freshAccountLike(control, env, soapAccount(ctx, env), 'pool');
  const y = await sessionCreate(ctx, env, fresh);
  if (!y.session) throw missing;
  ctx.note(`${missing.reason}: a fresh account of the simulator with the same PCC stands in (its pool is empty)`);
  return y.session;
}

/** The session tokens whose close the run counted: a session closed twice (a check of the closed state) counts once. */
const countedClosed = new Set<string>();
/** Sessions the harness opened whose close the service has not confirmed (they may still hold a slot). */
const unconfirmed = new Set<string>();
/** Sessions whose SessionCloseRQ the service acknowledged, newest last (at most {@link KEPT_CLOSED}). */
const acknowledgedClosed: OpenSession[] = [];
const KEPT_CLOSED = 32;
onNewRun(() => {
  sequence = 0;
  ledgers.clear();
  keptSlot = undefined;
  usedSessions.clear();
  soapTokenCallers.clear();
  countedClosed.clear();
  unconfirmed.clear();
  acknowledgedClosed.length = 0;
});

/**
 * The sessions of a caller whose close the service acknowledged in this run, newest first: a close that kept the
 * session open (its token still served) is SESS-02's deviation whichever check made it, and such sessions fill the
 * pool a later check needs.
 */
export function acknowledgedCloses(env: Environment, cpaId: string): readonly OpenSession[] {
  return acknowledgedClosed.filter((s) => s.env === env && s.cpaId === cpaId).reverse();
}

/**
 * `SessionCloseRQ` of a session the harness opened. A close answered with a server error that is no SOAP envelope (a
 * gateway's 502 or 504 page, which the transport resends, or a 500 page) may not have reached the service: it is sent
 * again, at most {@link SERVER_ERROR_RESENDS} times, as a probe's server error is, so that one gateway hiccup does not
 * leave the session open for the check that closed it (a second close of a session the first one did close is
 * refused, and the ping then says it is over).
 */
export async function sessionClose(ctx: CheckContext, session: OpenSession): Promise<SoapExchange & { readonly confirmed: boolean }> {
  const send = () => soapCall(ctx, session.env, {
    action: 'SessionCloseRQ',
    security: { kind: 'binarySecurityToken', token: session.token },
    body: sessionCloseRQBody({ pseudoCityCode: session.cpaId, timeStamp: new Date().toISOString().slice(0, 19) + 'Z' }),
    conversationId: session.conversationId,
    cpaId: session.cpaId,
  });
  let x = await send();
  // A gateway's 502 or 504 the transport has resent already.
  for (let resent = 0; resent < SERVER_ERROR_RESENDS && x.envelope === undefined && x.response.status >= 500 && !gatewayError(x.response); resent++) x = await send();
  // A session whose earlier close was not confirmed is still the harness's to count when a later close confirms it.
  const held = openSessions.delete(session.token) || unconfirmed.delete(session.token);
  // Closed, or over (its token refused as invalid): the registry lets it go. Any other answer (a gateway's error page,
  // another fault, a throttle past its wait) may leave it open: it stays registered, and the main process closes it
  // at the end of the run, as it does every session a check left open.
  const answer = classifySoap({ status: x.response.status, envelope: x.envelope, parseError: x.parseError }, ctx.target.faultCodes);
  let over = answer.kind === 'success';
  if (!over && answer.kind !== 'busy') {
    // The answer to a close is "Not shown beyond the invalidation of the token": where it is no acknowledgement (an
    // empty 200, a page, or the close itself refused, which a session already over gets and a service that refuses to
    // close an open one gives too), the Refresh Session ping with the token says whether the session is over (its
    // token refused as invalid), and then the run need not close it again.
    const after = await ping(ctx, session.env, session.token, session.conversationId);
    const probed = classifySoap({ status: after.response.status, envelope: after.envelope, parseError: after.parseError }, ctx.target.faultCodes);
    over = probed.kind === 'refused' && probed.why === 'invalid-token';
  }
  if (over) {
    // Confirmed over: acknowledged, or its token refused as invalid right after (the ping).
    if (held) {
      const l = ledger(session.env, session.cpaId);
      l.closed++;
      if (usedSessions.has(session.token)) l.closedUsed++;
    }
    usedSessions.delete(session.token);
    if (answer.kind === 'success') {
      acknowledgedClosed.push(session);
      if (acknowledgedClosed.length > KEPT_CLOSED) acknowledgedClosed.shift();
    }
    await unregisterSession(runConfig(), session.token);
    if (!countedClosed.has(session.token)) {
      countedClosed.add(session.token);
      ctx.created({ sessionsClosed: 1 });
    }
  } else if (held) {
    unconfirmed.add(session.token);
  }
  return { ...x, confirmed: over };
}

/**
 * `SessionCloseRQ` with any token (an unknown one, or one of a session already closed), outside the bookkeeping of
 * open sessions: for checks of how the service answers a token it must refuse.
 */
export async function closeRequest(ctx: CheckContext, env: Environment, token: string, conversationId = newConversationId(), cpaId = ctx.target.accounts[env]?.pcc ?? 'UNKNOWN'): Promise<SoapExchange> {
  return soapCall(ctx, env, {
    action: 'SessionCloseRQ',
    security: { kind: 'binarySecurityToken', token },
    body: sessionCloseRQBody({ pseudoCityCode: cpaId, timeStamp: new Date().toISOString().slice(0, 19) + 'Z' }),
    conversationId,
    cpaId,
  });
}

/** The keep-alive ping (the Refresh Session API) with a token. */
export async function ping(ctx: CheckContext, env: Environment, token: string, conversationId?: string): Promise<SoapExchange> {
  return soapCall(ctx, env, { action: 'OTA_PingRQ', security: { kind: 'binarySecurityToken', token }, body: otaPingRQBody(), ...(conversationId && { conversationId }) });
}

/** A business SOAP action with a token in the BinarySecurityToken. */
export async function businessCall(ctx: CheckContext, env: Environment, action: string, body: SoapBody, token: string, conversationId?: string): Promise<SoapExchange> {
  return soapCall(ctx, env, { action, security: { kind: 'binarySecurityToken', token }, body, ...(conversationId && { conversationId }) });
}

export function isFault(x: SoapExchange): boolean {
  return x.envelope?.fault !== undefined;
}

/**
 * Closes every session this worker still has open (end of a test file). Never throws: a close that got no answer
 * stays registered with the main process, which tries again at the end of the run.
 */
export async function closeOpenSessions(): Promise<number> {
  let closed = 0;
  for (const { ctx, session } of [...openSessions.values()]) {
    try {
      await sessionClose(ctx, session);
      closed++;
    } catch {
      openSessions.delete(session.token);
    }
  }
  return closed;
}

export function openSessionCount(): number {
  return openSessions.size;
}

let validator: Promise<EnvelopeValidator> | undefined;

/**
 * Validates an envelope against the harness's schemas, in this worker: libxml2 compiled to WebAssembly (no JVM to
 * start or wait for; held to the JVM fast path on every golden envelope, see harness/soap/in-process-validator.ts).
 * Loaded at the first validation: libxml2-wasm's module awaits its WebAssembly at the top level, which `require()` of
 * the package's entry points could not load.
 */
export async function validateEnvelope(xml: string, schema: SchemaName): Promise<Verdict> {
  validator ??= import('../soap/in-process-validator.ts').then((m) => m.inProcessEnvelopeValidator());
  return (await validator).validate(xml, schema);
}

export async function closeValidator(): Promise<void> {
  const v = validator;
  validator = undefined;
  if (v) await (await v.catch(() => undefined))?.close();
}
