import {
  bargainFinderMaxRSBody, buildResponse, customBody, escapeAttribute, escapeText, faultBody, NS, rawBody, hotelAvailLLSRSBody, otaPingRSBody, parseEnvelope, replyToOf, sessionCloseRSBody,
  sessionCreateRSBody, specFaultBody, tokenCreateRSBody, type ParsedEnvelope, type ParsedUsernameToken, type ReplyTo,
  type ResponseSecurity, type SoapBody, type SpecFaultKey,
} from '../soap/index.ts';
import { findSoapAction, otherEnvironment, type Environment, type SoapAction } from '../catalog/index.ts';
import type { LatitudeProfile } from './latitude.ts';
import type { SimAccount } from './accounts.ts';
import type { HandlerContext } from './handler-context.ts';
import { xml, type SimRequest } from './http.ts';
import { checkToken, findInLoginEnvironments, issueAccessToken, mayCall, type RestContext, type RestResult } from './rest.ts';
import { renamePrefixes } from './latitude.ts';
import { newSessionToken, type IssuedToken } from './tokens.ts';

/** What the simulator answers SOAP requests from when the request leaves a header field out (it is lenient). */
const SERVICE_PARTY = 'webservices.sabre.com';

interface Exchange {
  readonly core: HandlerContext;
  readonly ctx: RestContext;
  readonly req: SimRequest;
  readonly envelope: ParsedEnvelope | undefined;
  readonly replyTo: ReplyTo;
}

function reply(x: Exchange, action: string, security: ResponseSecurity, body: SoapBody, outcome: 'soap-ok' | 'soap-fault'): RestResult['response'] {
  const d = x.ctx.defects;
  const inReplyTo: ReplyTo = {
    ...x.replyTo,
    ...(d.has('soap02-no-ref-to-message-id') && { messageId: undefined }),
    ...(d.has('soap02-conversation-id-not-echoed') && { conversationId: `sim-${x.core.random.digits(10)}` }),
  };
  const p = x.ctx.profile;
  const messageId = p.responseMessageId === 'uuid' ? uuid(x) : x.core.random.digits(19).replace(/^0/, '1');
  const iso = new Date(x.ctx.now).toISOString();
  const timestamp = p.responseTimestamp === 'utc' ? iso : p.responseTimestamp === 'utc-basic' ? `${iso.slice(0, 19)}+0000` : new Date(x.ctx.now);
  let text = buildResponse({ header: { inReplyTo, action, messageId, timestamp }, security, body });
  if (p.bstAttributes === 'none') text = text.replace(' valueType="String" EncodingType="wsse:Base64Binary"', '');
  // Header details the document does not fix (latitude soap-header-details): eb:version, a block of another namespace.
  if (p.ebVersion !== 'echo') text = text.replace(/(<eb:MessageHeader\b[^>]*?\seb:version=")[^"]*"/, (_, head: string) => `${head}${escapeAttribute(p.ebVersion)}"`);
  if (p.responseHeader === 'minimal') {
    text = text.replace(/<eb:(From|To|CPAId|Service|MessageId|Timestamp)\b[^>]*>[\s\S]*?<\/eb:\1>/g, '');
  }
  if (p.headerBlock === 'trace') text = text.replace('</soap-env:Header>', `<tr:Trace xmlns:tr="urn:trace"><tr:Id>${x.core.random.digits(16)}</tr:Id></tr:Trace></soap-env:Header>`);
  // Where the StackTrace sits in a fault's detail (latitude fault-texts).
  if (outcome === 'soap-fault' && p.stackTracePlacement !== 'plain') {
    text = text.replace(/<detail><StackTrace>([\s\S]*?)<\/StackTrace><\/detail>/, (_, trace: string) => (p.stackTracePlacement === 'namespaced'
      ? `<detail><ns1:StackTrace xmlns:ns1="urn:x">${trace}</ns1:StackTrace></detail>`
      : `<detail><Error><StackTrace>${trace}</StackTrace></Error></detail>`));
  }
  if (d.has('soap02-no-message-data')) text = text.replace(/<eb:MessageData>[\s\S]*?<\/eb:MessageData>/, '');
  if (d.has('stok02-conversation-id-dropped') && action === 'SessionCreateRS') text = text.replace(/<eb:ConversationId>[\s\S]*?<\/eb:ConversationId>/, '');
  const status = outcome === 'soap-fault' && !d.has('err05-fault-status-200') ? p.faultStatus : 200;
  return xml(status, text);
}

function uuid(x: Exchange): string {
  const h = x.core.random.chars('0123456789abcdef', 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}@sim`;
}

/** The fault body, worded as the profile says where the document leaves the wording free. */
function faultBodyOf(x: Exchange, key: SpecFaultKey, token: string | undefined): SoapBody {
  const p = x.ctx.profile;
  if (key === 'invalidSecurityToken') {
    const quoted = x.ctx.defects.has('err04-token-not-quoted') ? '' : (token ?? '');
    const faultstring = p.invalidTokenFaultstring.replace('%s', quoted);
    const stackTrace = p.invalidTokenStackTrace;
    return faultBody({ faultcode: 'Client.InvalidSecurityToken', faultstring, stackTrace });
  }
  if (key === 'authenticationFailed' && p.authFaultCode !== 'Client.AuthenticationFailed') {
    return faultBody({ faultcode: p.authFaultCode, faultstring: 'The credentials were not accepted' });
  }
  if (key === 'reachedTALimit' && p.poolFullFaultCode !== 'Client.ReachedTALimit') {
    return faultBody({ faultcode: p.poolFullFaultCode, faultstring: 'Transaction limit reached: every session of this account is in use', stackTrace: 'errors.session.TRANSACTION_LIMIT_REACHED' });
  }
  return specFaultBody(key, token);
}

function fault(x: Exchange, key: SpecFaultKey, token?: string, extra: Partial<RestResult> = {}): RestResult {
  const d = x.ctx.defects;
  const body = faultBodyOf(x, key, token);
  // The token the request carried, echoed; a request that carried none gets an empty security header, not an empty token.
  let response = reply(x, 'ErrorRS', token ? { kind: 'binarySecurityToken', token } : { kind: 'empty' }, body, 'soap-fault');
  if (key === 'invalidSecurityToken' && response.kind === 'response') {
    let text = response.body;
    if (d.has('err04-wrong-faultcode')) text = text.replace('Client.InvalidSecurityToken', 'Client.InvalidToken');
    if (extra.detail === 'expired' && d.has('err04-expired-token-own-code')) text = text.replace('Client.InvalidSecurityToken', 'Client.ExpiredSecurityToken');
    if (d.has('err04-no-stacktrace') || (x.req.env === 'prod' && d.has('err04-prod-no-stacktrace'))) text = text.replace(/<detail>[\s\S]*?<\/detail>/, '');
    if (d.has('err04-unprefixed-faultcode')) text = text.replace(/<faultcode>[^:<]+:/, '<faultcode>');
    response = { ...response, body: text };
  }
  return { response, outcome: 'soap-fault', detail: key, ...(x.envelope?.action && { action: x.envelope.action }), ...extra };
}

/** The UsernameToken check of TokenCreateRQ and SessionCreateRQ. */
function authenticate(x: Exchange, creating: 'token' | 'session'): { ok: true; account: SimAccount; clientId: string } | { ok: false; result: RestResult } {
  const security = x.envelope?.security;
  const ut: ParsedUsernameToken | undefined =
    security?.kind === 'usernameToken' ? security : security?.kind === 'both' ? security.usernameToken : undefined;
  // The request's own BinarySecurityToken, echoed in the refusal's Security header where the profile says so.
  const sent = presentedToken(x);
  const echo = x.ctx.profile.authFaultEchoesToken && sent !== undefined && sent.trim() !== '' ? sent : undefined;
  if (!ut?.username) return { ok: false, result: fault(x, ut ? 'userNameNodeNotFound' : 'authenticationFailed', echo) };
  const clientId = `${ut.username}@${ut.organization ?? ''}`;
  if (ut.password === undefined && !x.ctx.defects.has('stok03-any-password')) return { ok: false, result: fault(x, 'passwordNodeNotFound', echo, { clientId }) };
  if (!ut.organization) return { ok: false, result: fault(x, 'organizationNodeNotFound', echo, { clientId }) };
  const d = x.ctx.defects;
  const passwordOf = (a: SimAccount) => (d.has('xproto03-separate-soap-password') ? `${a.password}#soap` : a.password);
  const { username, organization } = ut;
  const passes = (a: SimAccount) => d.has('stok03-any-password') || passwordOf(a) === ut.password || (d.has('stok03-empty-password') && ut.password === '');
  const login = (find: (accounts: readonly SimAccount[]) => SimAccount | undefined) =>
    findInLoginEnvironments(x.ctx, x.req.env, (env) => find(x.ctx.accountIndex(env).soap(username, organization, ut.domain)));
  // The defect is asked only where it would change the answer: a SessionCreateRQ the account's password would not open.
  const account = login((accounts) => accounts.find(passes))
    ?? (creating === 'session' && d.has('stok03-session-any-password') ? login((accounts) => accounts[0]) : undefined);
  if (!account) {
    if (d.has('stok03-token-in-fault')) return { ok: false, result: fault(x, 'authenticationFailed', `T1RLAQ${x.core.random.digits(40)}*`, { clientId }) };
    return { ok: false, result: fault(x, 'authenticationFailed', echo, { clientId }) };
  }
  return { ok: true, account, clientId };
}

/** Sessions of the account that hold a pool slot now. */
function slotsInUse(x: Exchange, env: Environment, account: SimAccount): number {
  const d = x.ctx.defects;
  let n = 0;
  for (const s of x.ctx.tokens.sessionsOf(env, account)) {
    if (s.slotUntil !== undefined) {
      if (x.ctx.now < s.slotUntil) n++;
      continue;
    }
    const timedOut = x.ctx.now >= s.expiresAt && !d.has('sess03-never-times-out');
    if (s.closedAt !== undefined) {
      if ((d.has('sess02-close-keeps-slot') || s.closedKeepingSlot) && !timedOut) n++;
    } else if (!timedOut || d.has('sess04-timeout-keeps-slot')) {
      n++;
    }
  }
  return n;
}

function tokenCreate(x: Exchange): RestResult {
  const auth = authenticate(x, 'token');
  if (!auth.ok) return auth.result;
  const d = x.ctx.defects;
  const issued = issueAccessToken(x.ctx, x.req.env, auth.account, 'soap', d.has('stok01-token-takes-slot') ? auth.account.sessionTimeoutSeconds : undefined);
  const security: ResponseSecurity = d.has('stok01-no-token') ? { kind: 'empty' } : { kind: 'binarySecurityToken', token: issued.token };
  const action = d.has('stok01-wrong-action') ? 'TokenCreateRQ' : 'TokenCreateRS';
  const shape = x.ctx.profile.tokenCreateBody;
  const body = shape === 'none' ? customBody()
    : shape === 'empty' ? rawBody('<sws:TokenCreateRS xmlns:sws="http://webservices.sabre.com" Version="1.0.0"/>')
    : shape === 'status' ? rawBody('<sws:TokenCreateRS xmlns:sws="http://webservices.sabre.com" Version="1.0.0" status="Approved"/>')
    : tokenCreateRSBody();
  return { response: reply(x, action, security, body, 'soap-ok'), outcome: 'soap-ok', clientId: auth.clientId, tokenIssued: issued.token, tokenKind: 'sessionless', action: 'TokenCreateRQ' };
}

function sessionCreate(x: Exchange): RestResult {
  const auth = authenticate(x, 'session');
  if (!auth.ok) return auth.result;
  const { account } = auth;
  const env = x.req.env;
  const inUse = slotsInUse(x, env, account);
  if (!x.ctx.defects.has('sess04-no-pool-limit') && inUse >= account.poolSize) {
    return fault(x, 'reachedTALimit', undefined, { clientId: auth.clientId, detail: 'reachedTALimit' });
  }
  const tokenHidden = inUse === 1 && x.ctx.defects.has('stok02-no-token-beside-one');
  let token = newSessionToken(x.core.tokenRandom);
  while (x.ctx.tokens.has(token)) token = newSessionToken(x.core.tokenRandom);
  const session: IssuedToken = {
    token, kind: 'session', env, account, via: 'soap', issuedAt: x.ctx.now, expiresAt: x.ctx.now + account.sessionTimeoutSeconds * 1000, uses: 0,
    conversationId: x.replyTo.conversationId,
  };
  x.ctx.tokens.add(session, x.ctx.now);
  if (inUse > 0 && x.ctx.defects.has('sess04-new-session-ends-older')) endSessions(x, env, account, session);
  const action = x.ctx.defects.has('stok02-wrong-action') ? 'SessionCreateRQ' : 'SessionCreateRS';
  const body = sessionCreateBody(x.ctx.profile.createBody, x.replyTo.conversationId);
  let response = reply(x, action, tokenHidden ? { kind: 'empty' } : { kind: 'binarySecurityToken', token }, body, 'soap-ok');
  // The session that makes the account's third (sixth…) held one answered with its token written raw after an "&":
  // not well-formed XML.
  if (response.kind === 'response' && x.ctx.tokens.sessionsOf(env, account).size % 3 === 0 && x.ctx.defects.has('soap02-session-answer-not-xml')) {
    response = { ...response, body: response.body.replace(token, `&${token}`) };
  }
  return { response, outcome: 'soap-ok', clientId: auth.clientId, tokenIssued: token, tokenKind: 'session', action: 'SessionCreateRQ' };
}

/** An action the service does not offer: a fault with the profile's code (latitude `other-fault-codes`). */
function unknownAction(x: Exchange, action: string): RestResult {
  const body = faultBody({ faultcode: x.ctx.profile.unknownActionFaultCode, faultstring: `Unknown action ${action}`, stackTrace: 'errors.USG_UNKNOWN_ACTION' });
  return { response: reply(x, 'ErrorRS', { kind: 'empty' }, body, 'soap-fault'), outcome: 'soap-fault', action, detail: `unknown action ${action}` };
}

function presentedToken(x: Exchange): string | undefined {
  const s = x.envelope?.security;
  if (s?.kind === 'binarySecurityToken') return s.token;
  if (s?.kind === 'both') return s.binarySecurityToken.token;
  return undefined;
}

/**
 * The SOAP actions this service offers, with the token kinds each accepts (latitude `api-token-kinds`): the
 * registry's, except that the profile may offer sessionless tokens through OTA_HotelAvailLLSRQ instead of
 * BargainFinderMaxRQ (which it then does not offer at all).
 */
export function offeredSoapAction(profile: LatitudeProfile, action: string): SoapAction | undefined {
  const spec = findSoapAction(action);
  if (!spec || profile.sessionlessAction === 'BargainFinderMaxRQ') return spec;
  if (action === 'BargainFinderMaxRQ') return undefined;
  if (action === profile.sessionlessAction) return { ...spec, accepts: ['sessionless', 'session'] };
  return spec;
}

/** Closes the open sessions of `account` in `env` but `except`, releasing their slots (the defects whose close ends others). */
function endSessions(x: Exchange, env: Environment, account: SimAccount, except: IssuedToken): void {
  for (const other of [...x.ctx.tokens.sessionsOf(env, account)]) {
    if (other === except || other.closedAt !== undefined || other.kind !== 'session') continue;
    other.closedAt = x.ctx.now;
    x.ctx.tokens.releaseSession(other);
  }
}

/** SessionCloseRQ, the ping and business actions: the token in the BinarySecurityToken, then the action. */
function tokenCall(x: Exchange, action: string): RestResult {
  const spec = offeredSoapAction(x.ctx.profile, action);
  const presented = presentedToken(x);
  if (presented === undefined) return fault(x, 'invalidSecurityToken', '', { action });
  let checked = checkToken(x.ctx, x.req.env, presented);
  const d = x.ctx.defects;
  if (!checked.ok && checked.reason === 'closed' && checked.token && spec?.purpose === 'business' && d.has('sess02-closed-token-serves-business')) checked = { ok: true, token: checked.token };
  if (!checked.ok && checked.reason === 'other-environment' && checked.token && spec?.purpose === 'session-close' && d.has('env01-close-cross-env')) checked = { ok: true, token: checked.token };
  // A close acknowledged for a token that is no longer valid: a session closed before, or one that timed out.
  const acknowledged = !checked.ok && spec?.purpose === 'session-close'
    && ((checked.reason === 'closed' && d.has('sess02-second-close-acknowledged'))
      || (checked.reason === 'expired' && checked.token?.kind === 'session' && d.has('sess03-close-acknowledges-expired')));
  if (acknowledged) {
    const body = x.ctx.profile.closeBody === 'empty' ? customBody() : sessionCloseRSBody();
    return { response: reply(x, x.ctx.profile.closeAction, { kind: 'binarySecurityToken', token: presented }, body, 'soap-ok'), outcome: 'soap-ok', tokenUsed: presented, action };
  }
  if (!checked.ok && checked.reason === 'unknown' && spec?.purpose === 'ping' && d.has('err04-ping-serves-unknown-token')) {
    return { response: pingAnswer(x, { kind: 'binarySecurityToken', token: presented }), outcome: 'soap-ok', tokenUsed: presented, action };
  }
  if (!checked.ok && checked.reason === 'expired' && checked.token?.via === 'rest' && d.has('life01-soap-takes-expired-rest-token')) checked = { ok: true, token: checked.token };
  const agedRestToken = checked.ok && checked.token.via === 'rest' && d.has('life01-soap-ages-rest-token') && x.ctx.now - checked.token.issuedAt > 60_000;
  const usedRestToken = checked.ok && checked.token.via === 'rest' && (checked.token.restUses ?? 0) > 0 && d.has('xproto01-used-rest-token-refused-soap');
  if (!checked.ok || agedRestToken || usedRestToken || (checked.token.via === 'rest' && d.has('xproto01-rest-token-refused-soap'))) {
    return fault(x, 'invalidSecurityToken', presented, { tokenUsed: presented, action, detail: checked.ok ? 'REST token' : checked.reason });
  }
  const { token } = checked;
  const used = { tokenUsed: presented, tokenKind: token.kind, action } as const;
  const sessionOnly = spec?.purpose === 'business' || spec?.purpose === 'ping';
  const kindOk = spec?.accepts.includes(token.kind)
    || (sessionOnly && d.has('access01-session-only-takes-sessionless'))
    || (sessionOnly && x.req.env === 'prod' && d.has('access01-prod-session-only-takes-sessionless'))
    || (sessionOnly && token.via === 'rest' && d.has('access01-session-only-takes-rest-tokens'));
  // Closing a session and keeping it alive are the session's own business, not an API the account may or may not call.
  const ownSession = spec?.purpose === 'session-close' || spec?.purpose === 'ping';
  if (!spec || !kindOk || (!ownSession && !mayCall(x.ctx, token.account, x.req.env, action, spec.amendment, false, { protocol: 'soap', token }))) {
    return fault(x, 'notAuthorized', presented, used);
  }
  token.uses++;
  if (token.kind === 'session' && !d.has('sess01-no-keepalive')) token.expiresAt = x.ctx.now + token.account.sessionTimeoutSeconds * 1000;
  if (token.slotUntil !== undefined && x.ctx.now < token.slotUntil) token.slotUntil = x.ctx.now + token.account.sessionTimeoutSeconds * 1000;
  // A TokenCreateRQ token that takes its slot at its first call.
  if (d.has('stok01-token-slot-on-use') && token.kind === 'sessionless' && token.via === 'soap' && token.slotUntil === undefined) x.ctx.tokens.holdSlot(token, x.ctx.now + token.account.sessionTimeoutSeconds * 1000);
  const security: ResponseSecurity = { kind: 'binarySecurityToken', token: presented };
  switch (spec.purpose) {
    case 'session-close':
      if (!d.has('sess02-close-keeps-token')) token.closedAt = x.ctx.now;
      // A session that served a call before this close (the close is a use too) keeps its slot with that defect.
      if (token.kind === 'session' && token.uses > 1 && d.has('sess02-used-close-keeps-slot')) token.closedKeepingSlot = true;
      // Closed for good: unless a defect keeps closed sessions' slots, it never counts in the pool again.
      if (token.closedAt !== undefined && !d.has('sess02-close-keeps-slot') && !token.closedKeepingSlot) x.ctx.tokens.releaseSession(token);
      if (token.kind === 'session' && d.has('sess02-close-ends-all-sessions')) endSessions(x, x.req.env, token.account, token);
      if (token.kind === 'session' && d.has('sess02-close-ends-other-env')) {
        // The same caller (EPR and PCC) in the other environment: its open sessions end with this one.
        const env = otherEnvironment(token.env);
        for (const account of x.ctx.accountsIn(env).filter((a) => a.epr === token.account.epr && a.pcc === token.account.pcc)) endSessions(x, env, account, token);
      }
      return { response: reply(x, x.ctx.profile.closeAction, security, x.ctx.profile.closeBody === 'empty' ? customBody() : sessionCloseRSBody(), 'soap-ok'), outcome: 'soap-ok', ...used };
    case 'ping':
      return { response: pingAnswer(x, security), outcome: 'soap-ok', ...used };
    default: {
      const body = x.ctx.profile.businessBody === 'other' ? otherPayload(action.replace(/RQ$/, 'RS')) : action === 'OTA_HotelAvailLLSRQ' ? hotelAvailLLSRSBody() : bargainFinderMaxRSBody();
      return { response: reply(x, action.replace(/RQ$/, 'RS'), security, body, 'soap-ok'), outcome: 'soap-ok', ...used };
    }
  }
}

/**
 * The body of SessionCreateRS (latitude soap-response-bodies): as publicly seen (`version="1" status="Approved"`), with
 * `Version="1.0.0"` instead of `version`, with a `<Success/>` child, or both.
 */
function sessionCreateBody(shape: LatitudeProfile['createBody'], conversationId: string): SoapBody {
  if (shape === 'public') return sessionCreateRSBody({ conversationId });
  const version = shape === 'success' ? 'version="1"' : 'Version="1.0.0"';
  const success = shape === 'success' || shape === 'Version-success' ? '<Success/>' : '';
  return rawBody(`<SessionCreateRS xmlns="${NS.ota}" ${version} status="Approved">${success}<ConversationId>${escapeText(conversationId)}</ConversationId></SessionCreateRS>`);
}

/** The Refresh Session ping's answer: OTA_PingRS, or a payload of another shape (latitude `business-payloads`). */
function pingAnswer(x: Exchange, security: ResponseSecurity): RestResult['response'] {
  const body = x.ctx.profile.businessBody === 'other' ? otherPayload('OTA_PingRS') : otaPingRSBody({ timeStamp: new Date(x.ctx.now).toISOString().slice(0, 19) });
  return reply(x, 'OTA_PingRS', security, body, 'soap-ok');
}

/** A business payload of a shape the harness's schemas do not know (latitude `business-payloads`). */
function otherPayload(name: string): SoapBody {
  return rawBody(`<${name} xmlns="http://services.example.net/payloads/v7" schemaVersion="7.2"><Status code="OK"/><Results count="0"><Note>simulated</Note></Results></${name}>`);
}

/**
 * The SOAP endpoint: one POST URL, dispatch on `eb:Action` (SOAPAction is ignored, as by the real service).
 * Faults come with HTTP 500 and header action `ErrorRS`; garbage gets `Client.InvalidEbXmlMessage`.
 */
export function handleSoap(core: HandlerContext, req: SimRequest): RestResult {
  const result = dispatchSoap(core, req);
  const r = result.response;
  if (r.kind !== 'response' || !r.headers['content-type']?.includes('xml')) return result;
  return { ...result, response: { ...r, body: renamePrefixes(r.body, core.profile) } };
}

function dispatchSoap(core: HandlerContext, req: SimRequest): RestResult {
  const ctx = core.restContext();
  const parsed = req.method === 'POST' ? parseEnvelope(req.body) : undefined;
  const envelope = parsed?.ok ? parsed.envelope : undefined;
  const header = envelope?.messageHeader;
  const security = envelope?.security;
  const organization = security?.kind === 'usernameToken' ? security.organization : undefined;
  const replyTo = replyToOf(header, { from: 'client', to: SERVICE_PARTY, cpaId: organization ?? '', conversationId: `sim-${core.random.digits(12)}` });
  const x: Exchange = { core, ctx, req, envelope, replyTo };
  if (!envelope) {
    if (ctx.defects.has('err07-soap-hang-on-garbage')) return { response: { kind: 'hang' }, outcome: 'no-answer' };
    if (ctx.profile.garbageAnswer !== 'fault') {
      const status = ctx.profile.garbageAnswer === 'http-500' ? 500 : 400;
      const body = status === 500 ? 'Internal Server Error: the request is not a SOAP envelope' : 'Bad Request: not a SOAP envelope';
      return { response: { kind: 'response', status, headers: { 'content-type': 'text/plain;charset=UTF-8' }, body }, outcome: 'soap-fault', detail: parsed && !parsed.ok ? parsed.code : `method ${req.method}` };
    }
    return fault(x, 'invalidEbXmlMessage', undefined, { detail: parsed && !parsed.ok ? parsed.code : `method ${req.method}` });
  }
  const action = envelope.action;
  switch (action) {
    case 'TokenCreateRQ':
      return tokenCreate(x);
    case 'SessionCreateRQ':
      return sessionCreate(x);
    case undefined:
    case '':
      return fault(x, 'invalidEbXmlMessage', undefined, { detail: 'no eb:Action' });
    default:
      if (!offeredSoapAction(ctx.profile, action)) return unknownAction(x, action);
      return tokenCall(x, action);
  }
}

