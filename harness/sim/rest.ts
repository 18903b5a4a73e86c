import { decodeAuthorization, type DecodedCredentials } from '../credentials/index.ts';
import {
  FORM_CONTENT_TYPE, GRANT_TYPE, limits, publicApiAuthError, publicApiForbidden, TOKEN_TYPE,
  type Environment, type RestEndpoint, type TokenKind,
} from '../catalog/index.ts';
import type { AccountIndex, SimAccount } from './accounts.ts';
import type { DefectId } from './defects.ts';
import type { SimOutcome } from './events.ts';
import { json, type SimRequest, type SimResponse } from './http.ts';
import { tokenState, type IssuedToken, type TokenStore } from './tokens.ts';
import type { Random } from './random.ts';
import { extraHeaderValues, type LatitudeProfile } from './latitude.ts';
import { caseFoldable, tokenOfShape } from './token-shape.ts';

/** What the REST handlers need from the core. */
export interface RestContext {
  readonly now: number;
  readonly defects: ReadonlySet<DefectId>;
  readonly profile: LatitudeProfile;
  readonly tokens: TokenStore;
  readonly random: Random;
  /** The source of token values (`SimOptions.tokenSalt`). */
  readonly tokenRandom: Random;
  accountsIn(env: Environment): readonly SimAccount[];
  /** The accounts of `env` by their logins (the same accounts as `accountsIn`). */
  accountIndex(env: Environment): AccountIndex;
  /** Decoded Authorization headers of this simulator (decoding depends only on the header and the defects). */
  readonly credentialCache: Map<string, DecodedCredentials>;
}

export interface RestResult {
  readonly response: SimResponse;
  readonly outcome: SimOutcome;
  readonly clientId?: string;
  readonly tokenIssued?: string;
  readonly tokenUsed?: string;
  readonly tokenKind?: TokenKind;
  /** The SOAP eb:Action, or the REST endpoint key. */
  readonly action?: string;
  readonly detail?: string;
}

const syntaxDescription = (ctx: RestContext) => ctx.profile.syntaxDescription;
const wrongClientDescription = (ctx: RestContext) => ctx.profile.wrongClientDescription;

/** A JSON answer with the profile's content type and headers. */
function profileJson(ctx: RestContext, status: number, value: unknown): SimResponse {
  const response = json(status, value, ctx.profile.jsonContentType);
  if (ctx.profile.extraHeaders.length === 0 || response.kind !== 'response') return response;
  return { ...response, headers: { ...response.headers, ...extraHeaderValues(ctx.profile.extraHeaders, ctx.random) } };
}

/** A token error that is not about the credentials (wrong grant_type, another Content-Type): free per the profile. */
function otherTokenError(ctx: RestContext, publicCode: string, description: string): SimResponse {
  const code = ctx.profile.otherTokenErrorCode;
  return profileJson(ctx, ctx.profile.otherTokenErrorStatus, { error: code === 'public' ? publicCode : code, error_description: description });
}

function tokenError(ctx: RestContext, description: string, error = 'invalid_client'): SimResponse {
  return profileJson(ctx, ctx.defects.has('err03-status-400') ? 400 : 401, { error, error_description: description });
}

const CREDENTIAL_CACHE_SIZE = 256;

/** Decodes credentials as the service must, or as a defect makes it; the same header is decoded once. */
function decode(ctx: RestContext, header: string | undefined): DecodedCredentials {
  if (header === undefined) return decodeUncached(ctx, header);
  let decoded = ctx.credentialCache.get(header);
  if (!decoded) {
    decoded = decodeUncached(ctx, header);
    if (ctx.credentialCache.size >= CREDENTIAL_CACHE_SIZE) ctx.credentialCache.clear();
    ctx.credentialCache.set(header, decoded);
  }
  return decoded;
}

function decodeUncached(ctx: RestContext, header: string | undefined): DecodedCredentials {
  const decoded = decodeAuthorization(header);
  if (ctx.defects.has('cred03-single-base64-expected') && header?.startsWith('Basic ')) {
    // A service that reads one layer of base64: correctly built credentials (two layers) are never read right.
    const single = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const fields = single.split(':');
    if (fields.length >= 5 && fields[0] === 'V1') {
      const parts = { userid: fields.slice(1, -3).join(':'), group: fields.at(-3) ?? '', domain: fields.at(-2) ?? '' };
      return { ok: true, clientId: fields.slice(0, -1).join(':'), password: fields.at(-1) ?? '', parts };
    }
    return { ok: false, code: 'client-id-form', reason: 'the Client ID is not of the form V1:<userid>:<group>:<domain>' };
  }
  if (ctx.defects.has('err01-single-base64-accepted') && !decoded.ok && header?.startsWith('Basic ')) {
    // A lenient service: accepts base64(V1:user:group:domain:password).
    const single = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const fields = single.split(':');
    if (fields.length >= 5 && fields[0] === 'V1') {
      const password = fields.at(-1) ?? '';
      const clientId = fields.slice(0, -1).join(':');
      const parts = { userid: fields.slice(1, -3).join(':'), group: fields.at(-3) ?? '', domain: fields.at(-2) ?? '' };
      return { ok: true, clientId, password, parts };
    }
  }
  if (ctx.defects.has('err01-lenient-base64') && !decoded.ok && ['outer-base64', 'client-id-base64', 'password-base64'].includes(decoded.code) && header?.startsWith('Basic ')) {
    // A lenient decoder (as Node's Buffer.from is): characters outside the alphabet are skipped in both layers, so a
    // "*" in the password's part reads as a wrong password, not as bad syntax.
    const outer = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const colon = outer.indexOf(':');
    if (colon >= 0) {
      const clientId = Buffer.from(outer.slice(0, colon), 'base64').toString('utf8');
      const password = Buffer.from(outer.slice(colon + 1), 'base64').toString('utf8');
      const fields = clientId.split(':');
      if (fields.length >= 4 && fields[0] === 'V1') {
        return { ok: true, clientId, password, parts: { userid: fields.slice(1, -2).join(':'), group: fields.at(-2) ?? '', domain: fields.at(-1) ?? '' } };
      }
    }
  }
  if (!decoded.ok || !header) return decoded;
  if (ctx.defects.has('cred03-latin1-decoding')) {
    const outer = Buffer.from(header.replace(/^Basic +/i, ''), 'base64').toString('latin1');
    const [id = '', secret = ''] = outer.split(':');
    return { ...decoded, clientId: Buffer.from(id, 'base64').toString('latin1'), password: Buffer.from(secret, 'base64').toString('latin1') };
  }
  if (ctx.defects.has('cred03-client-id-four-fields') && decoded.clientId.split(':').length !== 4) {
    return { ok: false, code: 'client-id-form', reason: 'the Client ID does not have four fields' };
  }
  return decoded;
}

function findAccount(ctx: RestContext, env: Environment, clientId: string, password: string): SimAccount | undefined {
  // An account found through an alternative group (CRED-05) is refused with the defect that refuses them.
  const alternatives = () => !ctx.defects.has('cred05-group-alternative-refused') && !(env === 'prod' && ctx.defects.has('cred05-prod-group-alternative-refused'));
  const found = findInLoginEnvironments(ctx, env, (e) => ctx.accountIndex(e).findRest(clientId, (a) => a.password === password, alternatives));
  // Developer-portal credentials are CERT's; the defect lets them log in to PROD too (asked only where it changes the answer).
  if (found === undefined && env === 'prod' && ctx.defects.has('access03-portal-in-prod')) {
    return ctx.accountIndex('cert').findRest(clientId, (a) => a.portal && a.password === password, alternatives);
  }
  return found;
}

/**
 * What `find` finds among the accounts that may authenticate in `env`: `env`'s own, then (with the defect that ignores
 * isolation) the other environment's. The defect is asked about only when `env`'s accounts found nothing, where it
 * changes the answer (the self-test reuses a file's defect-free verdicts when its simulator never asked).
 */
export function findInLoginEnvironments<T>(ctx: Pick<RestContext, 'defects'>, env: Environment, find: (env: Environment) => T | undefined): T | undefined {
  const own = find(env);
  if (own !== undefined || !ctx.defects.has('env03-credentials-all-envs')) return own;
  return find(env === 'cert' ? 'prod' : 'cert');
}

/** `POST /v2/auth/token`: the OAuth 2.0 client-credentials grant with the double-base64 credentials. */
export function handleTokenRequest(ctx: RestContext, req: SimRequest): RestResult {
  const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  const served = !contentType && ctx.profile.missingContentType === 'serve';
  if (contentType !== FORM_CONTENT_TYPE && !served) {
    if (ctx.defects.has('err07-drop-on-bad-content-type')) return { response: { kind: 'drop' }, outcome: 'no-answer' };
    return {
      response: otherTokenError(ctx, 'invalid_request', `Content-Type must be ${FORM_CONTENT_TYPE}`),
      outcome: 'token-refused-request',
      detail: `content-type ${contentType || '(none)'}`,
    };
  }
  const form = new URLSearchParams(req.body);
  if (form.get('grant_type') !== GRANT_TYPE && !ctx.defects.has('err07-any-grant-type')) {
    if (ctx.defects.has('err07-hang-on-bad-grant-type')) return { response: { kind: 'hang' }, outcome: 'no-answer' };
    return {
      response: otherTokenError(ctx, 'unsupported_grant_type', `grant_type must be ${GRANT_TYPE}`),
      outcome: 'token-refused-request',
      detail: `grant_type ${form.get('grant_type') ?? '(none)'}`,
    };
  }
  if (!form.has('source_ip') && ctx.defects.has('rest02-source-ip-demanded')) {
    return { response: json(400, { error: 'invalid_request', error_description: 'Missing required parameter: source_ip' }), outcome: 'token-refused-request' };
  }
  if (!req.body.startsWith('grant_type=') && ctx.defects.has('rest02-grant-type-first')) {
    return { response: json(400, { error: 'invalid_request', error_description: 'grant_type must be the first parameter' }), outcome: 'token-refused-request' };
  }
  if (form.has('source_ip') && ctx.defects.has('rest02-source-ip-rejected')) {
    return { response: json(400, { error: 'invalid_request', error_description: 'Unexpected parameter source_ip' }), outcome: 'token-refused-request' };
  }

  const decoded = decode(ctx, req.headers.authorization);
  if (!decoded.ok && decoded.code === 'missing' && ctx.defects.has('err01-missing-credentials-invalid-request')) {
    return { response: json(400, { error: 'invalid_request', error_description: 'Missing Authorization header' }), outcome: 'token-refused-syntax', detail: decoded.code };
  }
  if (!decoded.ok) {
    const description = ctx.defects.has('err01-wrong-description') ? wrongClientDescription(ctx) : syntaxDescription(ctx);
    return { response: tokenError(ctx, description), outcome: 'token-refused-syntax', detail: decoded.code };
  }
  const found = findAccount(ctx, req.env, decoded.clientId, decoded.password);
  // The configured CERT account is the first of CERT's.
  const account = found && req.env === 'cert' && found === ctx.accountsIn('cert')[0] && ctx.defects.has('cred03-cert-account-refused') ? undefined : found;
  if (!account) {
    const nonAscii = /[^\x00-\x7f]/.test(decoded.clientId) && ctx.defects.has('err02-non-ascii-id-syntax');
    let description: string = nonAscii || ctx.defects.has('err02-syntax-description') || (req.env === 'prod' && ctx.defects.has('err02-prod-syntax-description')) ? syntaxDescription(ctx) : wrongClientDescription(ctx);
    if (ctx.defects.has('err03-secret-echoed')) description = `${description}: ${decoded.password}`;
    if (ctx.defects.has('err03-secret-start-echoed')) description = `${description} (the secret starting "${decoded.password.slice(0, 12)}")`;
    const error = ctx.defects.has('err02-unauthorized-client') ? 'unauthorized_client' : 'invalid_client';
    return { response: tokenError(ctx, description, error), outcome: 'token-refused-credentials', clientId: decoded.clientId };
  }

  const issued = issueAccessToken(ctx, req.env, account, 'rest');
  const lifetime = Math.round((issued.expiresAt - issued.issuedAt) / 1000);
  const fields: [string, unknown][] = [
    ['access_token', issued.token],
    ['token_type', ctx.defects.has('rest03-token-type-capitalized') || (everyFourth(account) && ctx.defects.has('rest03-every-fourth-token-capitalized')) ? 'Bearer' : TOKEN_TYPE],
    ['expires_in', ctx.defects.has('rest03-expires-in-string') ? String(lifetime) : lifetime],
  ];
  if (ctx.profile.tokenExtraFields) fields.push(['scope', ''], ['issued_at', Math.floor(ctx.now / 1000)]);
  if (ctx.profile.tokenFieldOrder === 'reversed') fields.reverse();
  // An extra field there only when the request carried `source_ip`: its value echoed (latitude token-extra-fields).
  const sourceIp = form.get('source_ip');
  if (ctx.profile.tokenSourceIpEcho && sourceIp !== null) fields.push(['source_ip', sourceIp]);
  const ok = profileJson(ctx, 200, Object.fromEntries(fields));
  const response = ctx.defects.has('rest05-text-plain') && ok.kind === 'response' ? { ...ok, headers: { ...ok.headers, 'content-type': 'text/plain' } } : ok;
  return { response, outcome: 'token-issued', clientId: decoded.clientId, tokenIssued: issued.token };
}

/** One call, one token (REST-04); the defects that break that or the lifetime live here. */
export function issueAccessToken(ctx: RestContext, env: Environment, account: SimAccount, via: 'rest' | 'soap', slotSeconds?: number): IssuedToken {
  const reused = ctx.defects.has('rest04-token-reused') || (via === 'soap' && ctx.defects.has('rest04-soap-token-reused'));
  if (reused || ctx.defects.has('life02-refresh-returns-expired')) {
    // The token endpoint hands out its own latest token again (REST's through REST, TokenCreateRQ's through SOAP).
    const latest = ctx.tokens.latestFor(env, account, 'sessionless', via);
    if (latest) {
      const state = tokenState(latest, ctx.now);
      if (reused && state === 'valid') return latest;
      if (ctx.defects.has('life02-refresh-returns-expired') && state === 'expired') return latest;
    }
  }
  const lifetime = ctx.defects.has('rest03-legacy-lifetime') ? limits.previousAccessTokenLifetimeSeconds : limits.accessTokenLifetimeSeconds;
  let token = tokenOfShape(ctx.tokenRandom, ctx.profile.tokenShape);
  while (ctx.tokens.has(token)) token = tokenOfShape(ctx.tokenRandom, ctx.profile.tokenShape);
  const issued: IssuedToken = {
    token, kind: 'sessionless', env, account, via, issuedAt: ctx.now, expiresAt: ctx.now + lifetime * 1000, uses: 0,
    ...(slotSeconds !== undefined && { slotUntil: ctx.now + slotSeconds * 1000 }),
  };
  ctx.tokens.add(issued, ctx.now);
  return issued;
}

/** REST tokens issued to each account, for a defect that shows on every fourth one. */
const restTokensIssued = new WeakMap<object, number>();
function everyFourth(account: object): boolean {
  const n = (restTokensIssued.get(account) ?? 0) + 1;
  restTokensIssued.set(account, n);
  return n % 4 === 0;
}

export type TokenCheck =
  | { readonly ok: true; readonly token: IssuedToken }
  /** `token`: the token refused, where the store knows it (the defects that take such a token after all read it here). */
  | { readonly ok: false; readonly reason: 'unknown' | 'expired' | 'closed' | 'other-environment' | 'used-up'; readonly token?: IssuedToken };

/** Whether a presented token is good for a call in `env` now (shared by REST bearer auth and SOAP). */
export function checkToken(ctx: RestContext, env: Environment, value: string): TokenCheck {
  const token = ctx.tokens.get(value);
  if (!token) return { ok: false, reason: 'unknown' };
  if (token.env !== env && !ctx.defects.has('env01-token-cross-env')) return { ok: false, reason: 'other-environment', token };
  const state = tokenState(token, ctx.now);
  if (state === 'closed' && !ctx.defects.has('sess02-close-keeps-token')) return { ok: false, reason: 'closed', token };
  const keepsLiving = token.kind === 'sessionless' ? ctx.defects.has('life01-never-expires') : ctx.defects.has('sess03-never-times-out');
  if (state === 'expired' && !keepsLiving) return { ok: false, reason: 'expired', token };
  return { ok: true, token };
}

/** `checkToken` for a REST API call, with the defects that concern only the REST APIs (API-01, API-02). */
function restApiToken(ctx: RestContext, env: Environment, value: string): TokenCheck {
  let checked = checkToken(ctx, env, value);
  // A service that reads tokens of a case-insensitive shape in any letter case (latitude token-format).
  if (!checked.ok && checked.reason === 'unknown' && ctx.profile.restTokenAnyCase && caseFoldable(ctx.profile.tokenShape)) {
    const folded = ctx.tokens.getFolded(value);
    if (folded) checked = checkToken(ctx, env, folded.token);
  }
  if (!checked.ok && checked.reason === 'unknown' && ctx.defects.has('api02-token-prefix-compared') && value.length > 4) {
    // The token the value was made from, read without its last four characters.
    const stem = value.slice(0, -4);
    for (const t of ctx.tokens.all()) {
      if (t.token.length === value.length && t.token.startsWith(stem)) return checkToken(ctx, env, t.token);
    }
  }
  if (!checked.ok && checked.reason === 'unknown' && ctx.defects.has('api02-unknown-token-accepted') && value.length > 0) {
    const account = ctx.accountsIn(env)[0];
    if (account) return { ok: true, token: { token: value, kind: 'sessionless', env, account, via: 'rest', issuedAt: ctx.now, expiresAt: ctx.now + 1, uses: 0 } };
  }
  if (!checked.ok && checked.reason === 'expired' && checked.token?.via === 'soap' && ctx.defects.has('life01-rest-takes-expired-soap-token')) return { ok: true, token: checked.token };
  if (checked.ok && ctx.defects.has('api01-single-use-token') && (checked.token.restUses ?? 0) >= 1) return { ok: false, reason: 'used-up' };
  if (checked.ok && (checked.token.restUses ?? 0) >= 20 && ctx.defects.has('api01-token-wears-out')) return { ok: false, reason: 'used-up' };
  if (checked.ok && checked.token.via === 'soap' && checked.token.uses > (checked.token.restUses ?? 0) && ctx.defects.has('xproto02-used-soap-token-refused-rest')) return { ok: false, reason: 'used-up' };
  return checked;
}

function apiAuthFailure(ctx: RestContext): SimResponse {
  const p = ctx.profile;
  if (p.apiRefusalBody === 'empty') return { kind: 'response', status: p.apiRefusalStatus, headers: { 'www-authenticate': 'Bearer' }, body: '' };
  if (p.apiRefusalBody === 'oauth') return profileJson(ctx, p.apiRefusalStatus, { error: 'invalid_token', error_description: 'The access token is invalid or has expired' });
  return json(p.apiRefusalStatus === 401 ? publicApiAuthError.status : p.apiRefusalStatus, {
    status: 'NotProcessed',
    type: 'Validation',
    errorCode: publicApiAuthError.errorCode,
    timeStamp: new Date(ctx.now).toISOString(),
    message: publicApiAuthError.message,
  });
}

/** Whether the account may call the endpoint (agency subset, amendments, portal credentials). */
export function mayCall(
  ctx: Pick<RestContext, 'defects'>, account: SimAccount, env: Environment, key: string, amendment: string | undefined, isPublic: boolean,
  /** How the API was reached, for the defects that check some routes only. */
  seen?: { readonly protocol: 'rest' | 'soap'; readonly token: Pick<IssuedToken, 'via' | 'kind'> },
): boolean {
  const d = ctx.defects;
  if (account.portal && !d.has('access03-portal-everywhere')) return (env === 'cert' || d.has('access03-portal-in-prod')) && isPublic;
  const amendmentBypassed = d.has('access04-no-amendment-check') || (d.has('access04-session-bypass') && seen?.protocol === 'soap' && seen.token.kind === 'session');
  if (amendment && !account.amendments.includes(amendment) && !amendmentBypassed) return false;
  const agencyBypassed = d.has('access02-any-agency') || (d.has('access02-soap-token-any-agency') && seen?.protocol === 'rest' && seen.token.via === 'soap');
  return account.apis === '*' || account.apis.includes(key) || agencyBypassed;
}

/** A published REST API: bearer auth, then a small placeholder payload. */
export function handleApiCall(ctx: RestContext, req: SimRequest, endpoint: RestEndpoint): RestResult {
  const match = /^Bearer +(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!match?.[1]) return { response: apiAuthFailure(ctx), outcome: 'api-refused-token', detail: 'no bearer token' };
  const presented = match[1];
  let checked = restApiToken(ctx, req.env, presented);
  if (!checked.ok && checked.reason === 'other-environment' && checked.token && endpoint.amendment !== undefined && ctx.defects.has('env01-cross-env-amendment-api')) checked = { ok: true, token: checked.token };
  if (!checked.ok) return { response: apiAuthFailure(ctx), outcome: 'api-refused-token', tokenUsed: presented, detail: checked.reason };
  const { token } = checked;
  if (token.via === 'soap' && endpoint.key !== 'shop-themes' && ctx.defects.has('xproto02-probe-only')) {
    return { response: apiAuthFailure(ctx), outcome: 'api-refused-token', tokenUsed: presented, detail: 'token from SOAP' };
  }
  if (token.via === 'soap' && ctx.defects.has('xproto02-soap-token-400')) {
    return { response: json(400, { error: 'invalid_request', error_description: 'The access token was not issued by this endpoint' }), outcome: 'api-refused-token', tokenUsed: presented, detail: 'token from SOAP (400)' };
  }
  if (token.via === 'soap' && (ctx.defects.has('xproto02-soap-token-refused-rest') || (req.env === 'prod' && ctx.defects.has('xproto02-prod-soap-token-refused-rest')))) {
    return { response: apiAuthFailure(ctx), outcome: 'api-refused-token', tokenUsed: presented, detail: 'token from SOAP' };
  }
  const refusedAll = endpoint.amendment !== undefined && ctx.defects.has('access01-amendment-rest-api-refused');
  if (refusedAll || !endpoint.accepts.includes(token.kind) || !mayCall(ctx, token.account, req.env, endpoint.key, endpoint.amendment, endpoint.public, { protocol: 'rest', token })) {
    const body = { status: 'NotProcessed', type: 'Validation', errorCode: publicApiForbidden.errorCode, timeStamp: new Date(ctx.now).toISOString(), message: publicApiForbidden.message };
    return { response: json(publicApiForbidden.status, body), outcome: 'api-refused-access', tokenUsed: presented };
  }
  token.uses++;
  token.restUses = (token.restUses ?? 0) + 1;
  return { response: json(200, placeholderPayload(endpoint)), outcome: 'api-ok', tokenUsed: presented, tokenKind: token.kind, action: endpoint.key };
}

/** The business payloads are outside the interface document: a small stand-in that names the API. */
function placeholderPayload(endpoint: RestEndpoint): unknown {
  if (endpoint.key === 'shop-themes') {
    return { Themes: ['BEACH', 'DISNEY', 'GAMBLING', 'HISTORIC', 'MOUNTAINS', 'NATIONAL-PARKS', 'OUTDOORS', 'ROMANTIC', 'SHOPPING', 'SKIING', 'THEME-PARK', 'CARIBBEAN'].map((Theme) => ({ Theme })) };
  }
  return { api: endpoint.api, version: endpoint.version, simulated: true };
}
