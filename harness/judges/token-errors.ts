import { MIN_SECRET_LENGTH, secretForms } from '../report/redact.ts';
import { problem, type Problem } from './problem.ts';
import { isJsonContentType, jsonObject, type TokenAnswer } from './token-answer.ts';

/** Whether a token error says `invalid_client` (its JSON body's `error`). */
export function isInvalidClient(res: Pick<TokenAnswer, 'body'>): boolean {
  return jsonObject(res.body)?.error === 'invalid_client';
}

/**
 * ERR-03 on one token error (`what` names it in messages): a JSON object with a JSON content type (RFC 6749 §5.2),
 * status 401 when it says `invalid_client`, and none of the `secrets` (the client secrets the request could echo) in
 * any encoding (a secret shorter than the redaction minimum is not looked for). Every problem, in clause order.
 */
export function err03Problems(res: TokenAnswer, secrets: readonly string[], what = 'the token error'): Problem[] {
  const out: Problem[] = [];
  const type = res.headers['content-type'];
  const body = jsonObject(res.body);
  if (body && body.error === 'invalid_client' && res.status !== 401) out.push(problem('ERR-03.status-401', `${what}, an invalid_client answer, does not have status 401`, '401', String(res.status)));
  if (!body || !isJsonContentType(type)) {
    out.push(problem('ERR-03.json-body', `${what} has no JSON body`, 'a JSON object, with a JSON content type (RFC 6749 §5.2)', `${type ?? '(no content type)'}: ${res.body.slice(0, 120)}`));
  }
  const echoed = secrets.some((s) => s.length >= MIN_SECRET_LENGTH && secretForms(s).some((f) => res.body.includes(f)));
  if (echoed) out.push(problem('ERR-03.no-secret', `${what} echoes the client secret`, 'no trace of the secret', 'the secret, in the body'));
  return out;
}
