import { limits, TOKEN_TYPE } from '../catalog/index.ts';
import { problem, type Problem } from './problem.ts';

/** `application/json` or a `+json` type, with any parameters and in any case. RFC 6749 §5.1 names application/json. */
export function isJsonContentType(value: string | undefined): boolean {
  const type = value?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/** A token answer as the judges read it. */
export interface TokenAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** The body as a JSON object; `undefined` when it is not JSON or not an object. */
export function jsonObject(body: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(body) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * REST-03 on a successful token answer (`what` names it in messages): a JSON object, `access_token` a non-empty string,
 * `token_type` exactly `bearer`, `expires_in` the integer 604800. Every problem, in clause order.
 */
export function rest03Problems(res: TokenAnswer, what = 'the token response'): Problem[] {
  const obj = jsonObject(res.body);
  if (!obj) return [problem('REST-03.json-object', `${what} is not a JSON object`, 'a JSON object', JSON.stringify(res.body.slice(0, 200)))];
  const out: Problem[] = [];
  if (typeof obj.access_token !== 'string' || obj.access_token === '') out.push(problem('REST-03.access-token', `unexpected "access_token" value in ${what}`, 'a non-empty string', JSON.stringify(obj.access_token ?? null)));
  if (obj.token_type !== TOKEN_TYPE) out.push(problem('REST-03.token-type', `unexpected "token_type" value in ${what}`, JSON.stringify(TOKEN_TYPE), JSON.stringify(obj.token_type ?? null)));
  if (typeof obj.expires_in !== 'number') out.push(problem('REST-03.expires-in', `unexpected "expires_in" type in ${what}`, 'a JSON number', JSON.stringify(obj.expires_in ?? null)));
  else if (obj.expires_in !== limits.accessTokenLifetimeSeconds) out.push(problem('REST-03.expires-in', `unexpected "expires_in" value in ${what}`, String(limits.accessTokenLifetimeSeconds), JSON.stringify(obj.expires_in)));
  return out;
}

/** REST-05 (SHOULD) on a successful token answer: status 200 and a JSON content type. */
export function rest05Problems(res: TokenAnswer, what = 'the token response'): Problem[] {
  const out: Problem[] = [];
  if (res.status !== 200) out.push(problem('REST-05.status-200', `unexpected status of ${what}, a successful one`, '200', String(res.status)));
  const type = res.headers['content-type'];
  if (!isJsonContentType(type)) out.push(problem('REST-05.json-content-type', `${what} has no JSON content type`, 'application/json (parameters allowed)', type || '(none)'));
  return out;
}
