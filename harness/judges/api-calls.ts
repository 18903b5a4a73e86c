import { problem, type Problem } from './problem.ts';

/** A REST API call as API-03 reads it: its method, its path and its Authorization header. */
export interface SentApiCall {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  /**
   * Whether the bearer value is a token the service issued (the access_token as issued): `false` when it is surely
   * not, `undefined` when that is not known (traffic recorded after the client got its token, say).
   */
  readonly issued?: boolean;
}

/** An Authorization header as a report shows it: the scheme, the spacing, and the first characters of the token only. */
function showBearer(auth: string): string {
  return auth.replace(/^(\S*?)(\s*)(\S{0,6})\S*$/, (_m, s: string, sp: string, tk: string) => `${s}${sp ? `«${sp.length} space(s)»` : '«no space»'}${tk}…`);
}

/**
 * API-03 on one API call: "Authorization: Bearer <token>" (scheme Bearer, one space, the token as issued) and an upper-case method. Every
 * problem, in clause order. `API-03.environment-base-url` is not here: a call that reached an environment's REST base URL
 * went there (the caller knows where it went), and a token from the other environment is ENV-02's (one deviation, one rule).
 */
export function api03Problems(call: SentApiCall): Problem[] {
  const out: Problem[] = [];
  const auth = call.authorization ?? '';
  if (!/^Bearer [^\s]+$/.test(auth)) {
    out.push(problem('API-03.bearer-scheme', `the call ${call.method} ${call.path} does not carry "Authorization: Bearer <token>" (scheme Bearer, one space)`, 'Bearer <token>', auth ? showBearer(auth) : '(no header)'));
  } else if (call.issued === false) {
    out.push(problem('API-03.bearer-scheme', `the call ${call.method} ${call.path} carries a bearer token the service never issued: not the access_token as issued`, 'Bearer <access_token as issued>', showBearer(auth)));
  }
  if (call.method !== call.method.toUpperCase()) out.push(problem('API-03.upper-case-method', `method of ${call.path} is not upper case`, call.method.toUpperCase(), call.method));
  return out;
}
