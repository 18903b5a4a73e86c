import { basicAuthorization, clientIdFor } from '../credentials/index.ts';
import { FORM_CONTENT_TYPE, GRANT_TYPE, TOKEN_PATH, type Environment, type RestEndpoint } from '../catalog/index.ts';
import type { Account, HttpResponse } from '../targets/index.ts';
import { journalToken, targetSeconds } from './journal.ts';
import type { CheckContext } from './rule-test.ts';

/** The Authorization header of a token request for an account, built per the interface document. */
export function authorizationFor(account: Account): string {
  return basicAuthorization({ ...clientIdFor(account), password: account.password });
}

export interface TokenRequest {
  /** `null` leaves the header out; default: the account's correctly built credentials. */
  readonly authorization?: string | null;
  /** `null` leaves the header out; default `application/x-www-form-urlencoded`. */
  readonly contentType?: string | null;
  /** The raw body; default `grant_type=client_credentials`. */
  readonly body?: string;
  readonly account?: Account;
  readonly timeoutMs?: number;
  /** Sent without the run's correlation header (see `HttpRequest.withoutCorrelationHeader`). */
  readonly withoutCorrelationHeader?: boolean;
}

export function baseUrl(ctx: CheckContext, env: Environment): string {
  const e = ctx.target.environments[env];
  if (!e) ctx.notApplicable(`the target has no ${env.toUpperCase()} environment configured`);
  return e.restBaseUrl;
}

export function account(ctx: CheckContext, env: Environment): Account {
  const a = ctx.target.accounts[env];
  if (!a) ctx.notApplicable(`the target has no ${env.toUpperCase()} account configured`);
  return a;
}

/** `POST /v2/auth/token` with what `req` says (a correct request by default). */
export async function requestToken(ctx: CheckContext, env: Environment, req: TokenRequest = {}): Promise<HttpResponse> {
  const url = `${baseUrl(ctx, env)}${TOKEN_PATH}`;
  const headers: Record<string, string> = { accept: 'application/json' };
  const authorization = req.authorization === undefined ? authorizationFor(req.account ?? account(ctx, env)) : req.authorization;
  if (authorization !== null) headers.authorization = authorization;
  const contentType = req.contentType === undefined ? FORM_CONTENT_TYPE : req.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  const body = req.body ?? `grant_type=${GRANT_TYPE}`;
  const res = await ctx.http.request({
    method: 'POST',
    url,
    headers,
    body,
    ...(req.timeoutMs !== undefined && { timeoutMs: req.timeoutMs }),
    ...(req.withoutCorrelationHeader && { withoutCorrelationHeader: true }),
  });
  if (res.status === 200) ctx.created({ tokens: 1 });
  const form = contentType === FORM_CONTENT_TYPE;
  const valid = req.authorization === undefined && form && isDocumentForm(body);
  journalToken({ request: { valid, form, what: valid ? `a well-formed token request of ${req.account ? `the account ${req.account.epr}` : 'the configured account'} in ${env.toUpperCase()}` : `a token request with ${req.authorization === undefined ? 'the account\'s credentials' : 'other credentials'}` }, response: res }, targetSeconds(ctx.target));
  return res;
}

/**
 * A form the document calls valid: `grant_type=client_credentials`, and optionally `source_ip` ("The form field
 * `source_ip` is optional"), nothing else.
 */
export function isDocumentForm(body: string): boolean {
  const form = new URLSearchParams(body);
  const keys = [...form.keys()];
  return form.getAll('grant_type').length === 1 && form.get('grant_type') === GRANT_TYPE && keys.every((k) => k === 'grant_type' || k === 'source_ip') && form.getAll('source_ip').length <= 1;
}

/** Parses a JSON body; `undefined` when it is not JSON. */
export function jsonBody(res: HttpResponse): unknown {
  try {
    return JSON.parse(res.body) as unknown;
  } catch {
    return undefined;
  }
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A token endpoint answer in one line: `401 invalid_client: Wrong clientID or clientSecret`. */
export function describeTokenAnswer(res: HttpResponse): string {
  const body = jsonBody(res);
  if (!isRecord(body)) return `${res.status} ${res.body.slice(0, 120)}`.trim();
  if (typeof body.error === 'string') return `${res.status} ${body.error}${typeof body.error_description === 'string' ? `: ${body.error_description.slice(0, 160)}` : ''}`;
  return `${res.status} ${typeof body.access_token === 'string' ? '(a token)' : JSON.stringify(Object.keys(body))}`;
}

/** The access token of a successful token answer, if it has one. */
export function accessTokenOf(res: HttpResponse): string | undefined {
  if (res.status < 200 || res.status >= 300) return undefined;
  const body = jsonBody(res);
  const token = isRecord(body) ? body.access_token : undefined;
  return typeof token === 'string' && token !== '' ? token : undefined;
}

export interface ApiCall {
  /** Overrides the Authorization header; `null` leaves it out. */
  readonly authorization?: string | null;
  readonly method?: string;
}

/** Calls a published REST API with `Authorization: Bearer <token>`. */
export async function callApi(ctx: CheckContext, env: Environment, endpoint: RestEndpoint, token: string | undefined, call: ApiCall = {}): Promise<HttpResponse> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const authorization = call.authorization === undefined ? (token === undefined ? null : `Bearer ${token}`) : call.authorization;
  if (authorization !== null) headers.authorization = authorization;
  const method = call.method ?? endpoint.method ?? 'GET';
  const query = endpoint.query ? `?${endpoint.query}` : '';
  const body = method === 'POST' ? '{}' : undefined;
  if (body) headers['content-type'] = 'application/json';
  return ctx.http.request({ method, url: `${baseUrl(ctx, env)}${endpoint.path}${query}`, headers, ...(body && { body }) });
}

export function accepted(res: HttpResponse): boolean {
  return res.status >= 200 && res.status < 300;
}
