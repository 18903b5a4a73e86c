/**
 * What one recorded exchange says, read once: a token request and the token it obtained, an API call and the token
 * it carried, a SOAP request and answer parsed and classified (harness/classify), the use it made of a token. The
 * batch judge (traffic.ts) and the running judge (running-judge.ts) read exchanges with these. Pure: no I/O.
 */
import { classifyRest, classifySoap, isTokenRefusal, type RestAnswer, type SoapAnswer } from '../classify/index.ts';
import { decodeAuthorization, type DecodedCredentials } from '../credentials/index.ts';
import type { ParsedEnvelope } from '../soap/index.ts';
import { envelopesOf, type AnswerEnvelope } from './envelopes.ts';
import { TOKEN_PATH, type Environment, type TokenKind } from '../catalog/index.ts';
import type { JudgeContext, KnownAccount, ObservedExchange } from './exchange.ts';
import { TOKEN_CREATING } from '../judges/index.ts';

/** A request to the REST token endpoint (also a wrong path such as `/v2/auth/token/`). */
export interface TokenRequest {
  readonly x: ObservedExchange;
  readonly authorization: string | undefined;
  readonly decoded: DecodedCredentials;
  /** The known account whose password the credentials carry. */
  readonly account: KnownAccount | undefined;
  /**
   * The environment whose account's password the credentials carry, when it is not the environment the request went
   * to and that environment's accounts are known, none with this password (CRED-02: another environment's secret).
   */
  readonly passwordOf?: Environment;
  /** `issued` (a token came back), `invalid_client`, or anything else. */
  readonly answer: 'issued' | 'invalid_client' | 'other';
  readonly token?: string;
  readonly expiresIn?: number;
}

/** A call of a published REST API. */
export interface ApiCall {
  readonly x: ObservedExchange;
  readonly authorization: string | undefined;
  /** The token after the `Bearer` scheme, however it was spaced. */
  readonly token: string | undefined;
  readonly answer: RestAnswer | undefined;
}

/** A SOAP request and its answer. */
export interface SoapMessage {
  readonly x: ObservedExchange;
  readonly request: ParsedEnvelope | undefined;
  readonly requestError?: string;
  /** The answer's envelope (without its body's element tree, which no rule reads). */
  readonly response: AnswerEnvelope | undefined;
  readonly answer: SoapAnswer | undefined;
  readonly action: string | undefined;
  /** The token in the request's wsse:BinarySecurityToken. */
  readonly tokenUsed: string | undefined;
  /** The token the answer issued (TokenCreateRS / SessionCreateRS). */
  readonly tokenIssued: string | undefined;
  /** The account whose password the UsernameToken carries. */
  readonly account: KnownAccount | undefined;
}

/** A token the service issued during the observation. */
export interface IssuedToken {
  readonly value: string;
  readonly kind: TokenKind;
  readonly env: Environment | undefined;
  readonly via: 'rest' | 'soap';
  /** When the answer carrying it ended, ms since the epoch. */
  readonly issuedAt: number;
  readonly expiresIn: number | undefined;
  readonly account: KnownAccount | undefined;
  /** The exchange that obtained it. */
  readonly seq: number;
}

/** A use of a token: a REST call or a SOAP request carrying it. */
export interface TokenUse {
  readonly x: ObservedExchange;
  readonly token: string;
  /**
   * The answer refused the token, sent where it belongs: a REST 401 to `Authorization: Bearer <token>`, or a SOAP
   * `Client.InvalidSecurityToken` for the token in wsse:BinarySecurityToken. A refusal of a token sent elsewhere refuses the request's form
   * (API-03, SOAP-04), not the token.
   */
  readonly refused: boolean;
  /** The answer was a refusal, whatever the form of the request: the client learnt its token no longer works. */
  readonly rejected: boolean;
}

const isTokenPath = (path: string) => path.replace(/\/+$/, '').endsWith(TOKEN_PATH);
/**
 * A token request is one at the token path, or one the client meant as one wherever it sent it (REST-01 judges the
 * path): Basic credentials, or a grant_type in its body.
 */
export const isTokenRequest = (x: ObservedExchange) => isTokenPath(x.request.path)
  || /^basic\b/i.test(x.request.headers.authorization ?? '') || /(^|&)grant_type=/.test(x.request.body) || /"grant_type"/.test(x.request.body);

export function jsonObject(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function bst(envelope: Pick<ParsedEnvelope, 'security'> | undefined): string | undefined {
  const s = envelope?.security;
  if (s?.kind === 'binarySecurityToken') return s.token;
  if (s?.kind === 'both') return s.binarySecurityToken.token;
  return undefined;
}

/** Which client sent a token request: its environment and its credentials. */
export const clientKey = (r: TokenRequest): string => `${r.x.env}|${r.authorization}`;

/** The token of `Authorization: Bearer <token>`, however the scheme was spelled or spaced. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const m = /^\s*bearer\s*(\S+)\s*$/i.exec(authorization ?? '');
  return m?.[1];
}



/** The known account with this password: in `env` first, then in any environment. */
export function accountByPassword(ctx: JudgeContext, env: Environment | undefined, password: string | undefined): KnownAccount | undefined {
  if (password === undefined) return undefined;
  const inEnv = env ? (ctx.accounts[env] ?? []) : [];
  const all = Object.values(ctx.accounts).flatMap((a) => a ?? []);
  return inEnv.find((a) => a.password === password) ?? all.find((a) => a.password === password);
}

/** A REST exchange at the token endpoint (see {@link isTokenRequest}) as a token request. */
export function readTokenRequest(x: ObservedExchange, ctx: JudgeContext): TokenRequest {
  const authorization = x.request.headers.authorization;
  const decoded = decodeAuthorization(authorization);
  const password = decoded.ok ? decoded.password : undefined;
  const account = accountByPassword(ctx, x.env, password);
  const passwordOf = otherEnvironmentOf(ctx, x.env, password);
  const body = x.response ? jsonObject(x.response.body) : undefined;
  const ok = x.response !== undefined && x.response.status >= 200 && x.response.status < 300;
  const token = ok && typeof body?.access_token === 'string' && body.access_token !== '' ? body.access_token : undefined;
  const expiresIn = typeof body?.expires_in === 'number' ? body.expires_in : undefined;
  const answer = token ? 'issued' : body?.error === 'invalid_client' ? 'invalid_client' : 'other';
  return { x, authorization, decoded, account, answer, ...(passwordOf && { passwordOf }), ...(token !== undefined && { token }), ...(expiresIn !== undefined && { expiresIn }) };
}

/**
 * The account a token request's Client ID must match: the one whose password it carries, unless that password is
 * another environment's account's (see {@link TokenRequest.passwordOf}), which names no account of this environment.
 */
export function clientIdAccount(r: TokenRequest): KnownAccount | undefined {
  return r.passwordOf ? undefined : r.account;
}

/** The other environment whose known account has `password`, where no known account of `env` has it (see {@link TokenRequest.passwordOf}). */
function otherEnvironmentOf(ctx: JudgeContext, env: Environment | undefined, password: string | undefined): Environment | undefined {
  if (password === undefined || env === undefined) return undefined;
  const mine = ctx.accounts[env] ?? [];
  if (mine.length === 0 || mine.some((a) => a.password === password)) return undefined;
  return (Object.entries(ctx.accounts) as [Environment, readonly KnownAccount[] | undefined][]).find(([e, list]) => e !== env && (list ?? []).some((a) => a.password === password))?.[0];
}

/** A REST exchange that is no token request as an API call, and the use it made of a token. */
export function readApiCall(x: ObservedExchange): { readonly call: ApiCall; readonly use: TokenUse | undefined } {
  const authorization = x.request.headers.authorization;
  const token = bearerToken(authorization);
  const answer = x.response ? classifyRest(x.response.status) : undefined;
  // A 401 to a malformed header (`Bearer<token>`) refuses the header, not the token (API-03's to judge).
  // A 403 may refuse a token too (latitude api-refusal-shape): the client may take it as the end of its token and
  // renew it (`rejected`). Only a 401 is surely about the token, so only it makes sending the token again LIFE-03's matter.
  const use = token ? { x, token, refused: answer?.kind === 'refused' && /^Bearer \S+$/.test(authorization ?? ''), rejected: answer !== undefined && isTokenRefusal(answer) } : undefined;
  return { call: { x, authorization, token, answer }, use };
}

/**
 * A SOAP exchange as a SOAP message. `issuedSoFar`: whether a value is a token issued before (a token sent where a
 * password belongs, in the UsernameToken of a later call, or in a BinarySecurityToken of another namespace, is still a
 * use of that token: a SessionCloseRQ so sent still closes its session as SESS-06 reads it, and its form is SOAP-04's).
 */
export function readSoapMessage(x: ObservedExchange, ctx: JudgeContext, issuedSoFar: (value: string) => boolean): SoapMessage {
  const { request: req, response: res } = envelopesOf(x);
  const request = req.ok ? req.envelope : undefined;
  const response = res?.ok ? res.envelope : undefined;
  const answer = x.response ? classifySoap({ status: x.response.status, envelope: response, parseError: res && !res.ok ? res.message : undefined }, ctx.faultCodes) : undefined;
  const action = request?.action;
  const tokenIssued = answer?.kind === 'success' ? bst(response) : undefined;
  const s = request?.security;
  const password = s?.kind === 'usernameToken' ? s.password : s?.kind === 'both' ? s.usernameToken.password : undefined;
  const tokenAsPassword = password !== undefined && issuedSoFar(password) ? password : undefined;
  return {
    x, request, ...(req.ok ? {} : { requestError: req.message }), response, answer, action, tokenUsed: action && TOKEN_CREATING.has(action) ? undefined : (bst(request) ?? tokenAsPassword ?? request?.misplacedTokens.find(issuedSoFar)),
    tokenIssued, account: accountByPassword(ctx, x.env, password),
  };
}

/**
 * The message's token is where the service reads it, wsse:BinarySecurityToken: only then does a refusal refuse the
 * token, and a SessionCloseRQ close its session for the service. Elsewhere (a password, another namespace) it is
 * still the client's use of it, and its place SOAP-04's to judge.
 */
export function tokenInPlace(m: Pick<SoapMessage, 'request' | 'tokenUsed'>): boolean {
  return m.tokenUsed !== undefined && bst(m.request) === m.tokenUsed;
}

/** The use a SOAP message made of a token, if it carried one. */
export function soapUse(m: SoapMessage): TokenUse | undefined {
  if (!m.tokenUsed) return undefined;
  const rejected = m.answer?.kind === 'refused';
  // Only Client.InvalidSecurityToken (or its StackTrace marker) ends the token: a caller not authorized for an
  // action, or refused credentials, leaves its token and session as they were (SESS-06 wants it closed then).
  const invalid = m.answer?.kind === 'refused' && m.answer.why === 'invalid-token';
  return { x: m.x, token: m.tokenUsed, refused: invalid && tokenInPlace(m), rejected };
}

/** The token a token request or a token-creating SOAP request obtained, as the judge keeps it. */
export function issuedBy(x: ObservedExchange, r: { readonly token?: string | undefined; readonly expiresIn?: number | undefined; readonly account: KnownAccount | undefined }, kind: TokenKind, via: 'rest' | 'soap'): IssuedToken {
  return { value: r.token!, kind, env: x.env, via, issuedAt: x.endedAt, expiresIn: r.expiresIn, account: r.account, seq: x.seq };
}
