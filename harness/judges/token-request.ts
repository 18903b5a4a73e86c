import { FORM_CONTENT_TYPE, GRANT_TYPE, TOKEN_PATH } from '../catalog/index.ts';
import { problem, type Problem } from './problem.ts';

/** A token request as the judges read it (a simulator event or a recorded exchange): header names in lower case. */
export interface SentTokenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
}

/**
 * REST-01 on one token request: `POST {base_url}/v2/auth/token`, `Content-Type: application/x-www-form-urlencoded`
 * (parameters allowed) and the form field `grant_type=client_credentials`. `basePath` is the path of `{base_url}`
 * when known (the simulator's: empty); without it, any path ending in /v2/auth/token passes (a recording does not say
 * where the base address ends). Every problem, in clause order.
 */
export function rest01Problems(req: SentTokenRequest, basePath?: string): Problem[] {
  const out: Problem[] = [];
  const pathOk = basePath === undefined ? req.path.endsWith(TOKEN_PATH) : req.path === `${basePath}${TOKEN_PATH}`;
  if (req.method !== 'POST' || !pathOk) out.push(problem('REST-01.method-path', 'the token request is not POST /v2/auth/token', `POST ${basePath ?? ''}${TOKEN_PATH}`, `${req.method} ${req.path}`));
  const type = req.headers['content-type'];
  if ((type ?? '').split(';')[0]?.trim().toLowerCase() !== FORM_CONTENT_TYPE) out.push(problem('REST-01.content-type', 'the token request is not form-encoded', FORM_CONTENT_TYPE, type ?? '(none)'));
  if (new URLSearchParams(req.body).get('grant_type') !== GRANT_TYPE) out.push(problem('REST-01.grant-type', 'the token request has no form field grant_type=client_credentials', `grant_type=${GRANT_TYPE}`, req.body.slice(0, 80) || '(empty body)'));
  return out;
}
