import { MIN_SECRET_LENGTH, secretForms } from '../report/redact.ts';
import { plural, problem, type Problem } from './problem.ts';
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
  // The secret in any form, or a start of it (8 characters or more, no plain word: see secretForms).
  const echoed = secrets.some((s) => s.length >= MIN_SECRET_LENGTH && passwordForms(s).some((f) => res.body.includes(f)));
  if (echoed) out.push(problem('ERR-03.no-secret', `${what} echoes the client secret`, 'no trace of the secret', 'the secret, in the body'));
  return out;
}

/**
 * The forms of the last few client secrets judged, with their starts: a run judges every token error of a file's
 * checks, most of them with the same few secrets (the forms of one took 0.02-0.03 ms, and a run's checks asked for
 * them thousands of times).
 */
const recentForms = new Map<string, readonly string[]>();
const RECENT_SECRETS = 16;

function passwordForms(secret: string): readonly string[] {
  let forms = recentForms.get(secret);
  if (forms === undefined) {
    forms = secretForms(secret, { starts: true });
    if (recentForms.size >= RECENT_SECRETS) recentForms.delete(recentForms.keys().next().value!);
    recentForms.set(secret, forms);
  }
  return forms;
}

/** What the service sent in a refused token exchange: its status and the `error` and `error_description` of its body. */
export interface ServiceSaid {
  readonly status: number;
  readonly error: unknown;
  readonly description: unknown;
}

/** The status and the `error` and `error_description` of a token error's body (undefined when it is no JSON). */
export function serviceSaid(answer: string | undefined, status: number): ServiceSaid {
  try {
    const body = JSON.parse(answer ?? '') as { error?: unknown; error_description?: unknown };
    return { status, error: body.error, description: body.error_description };
  } catch {
    return { status, error: undefined, description: undefined };
  }
}

/** The error a client reported to its caller (its kind, code, description and, when it gives one, the HTTP status). */
export interface ReportedError {
  readonly kind: string;
  readonly code?: unknown;
  readonly description?: unknown;
  readonly status?: number;
}

/**
 * ERR-06.keeps-error: on `invalid_client` the client reports an authentication error that keeps what the service
 * `sent` — its code, its description and (when the error gives one) its status. `reported`: the client's error;
 * a string, when what it threw is no client error (its text); `undefined`, when the call succeeded. Only a driven
 * client shows what it reports: traffic does not.
 */
export function err06KeepsProblem(sent: ServiceSaid, reported: ReportedError | string | undefined): Problem | undefined {
  if (reported === undefined || typeof reported === 'string') {
    return problem('ERR-06.keeps-error', 'a REST call whose token request was refused did not fail with an error', `an auth error with code ${JSON.stringify(sent.error)}`, reported ?? 'success');
  }
  const actual = { kind: reported.kind, code: reported.code, description: reported.description, ...(reported.status !== undefined && { status: reported.status }) };
  const expected = { kind: 'auth', code: sent.error, description: sent.description, ...(reported.status !== undefined && { status: sent.status }) };
  if (reported.kind === 'auth' && reported.code === sent.error && reported.description === sent.description && (reported.status === undefined || reported.status === sent.status)) return undefined;
  return problem('ERR-06.keeps-error', `the client's error does not keep what the service sent (HTTP ${sent.status}, error ${JSON.stringify(sent.error)})`, JSON.stringify(expected), JSON.stringify(actual));
}

/**
 * ERR-06.no-retry-loop: the token requests one operation of the client sent with credentials the service refuses
 * (`invalid_client`): at most two (one retry). More is a loop — when they are known to answer one operation.
 */
export function err06LoopProblem(requests: number): Problem | undefined {
  if (requests <= 2) return undefined;
  return problem('ERR-06.no-retry-loop', 'the client retried invalid_client in a loop', 'at most 2 token requests', `${requests} token requests`);
}

/**
 * ERR-02.distinguishable, judged against answers, not words: an answer to well-formed credentials with a wrong client
 * ID or secret (`answer`) must differ from every answer the same target gave the same run to missing or malformed
 * credentials (`err01Answers`, ERR-01's cases). Equal status, `error` and `error_description` cannot be told apart.
 */
export function err02DistinguishableProblem(answer: ServiceSaid, err01Answers: readonly (ServiceSaid & { readonly what: string })[], what = 'the answer to a wrong client ID or secret'): Problem | undefined {
  const same = err01Answers.find((a) => a.status === answer.status && a.error === answer.error && a.description === answer.description);
  if (!same) return undefined;
  const shown = `HTTP ${answer.status}, error ${JSON.stringify(answer.error)}, error_description ${JSON.stringify(answer.description)}`;
  return problem('ERR-02.distinguishable', `${what} cannot be told from the answer to ${same.what} (ERR-01's case): both are ${shown}`, 'an answer that differs from ERR-01\'s (its error_description saying the client ID or secret is wrong)', shown);
}

/** What ERR-03's check judged: the token errors it received (no time-out, no drop, not a success), and of them the `invalid_client` ones. */
export interface Err03Judged {
  readonly answers: number;
  readonly invalidClient: number;
}

/**
 * ERR-03's clauses that no answer exercised, with the reason: all three when no token error came back in time (every
 * request timed out or was dropped: ERR-07 judges that), `ERR-03.status-401` alone when none said `invalid_client`.
 */
export function err03Unchecked(judged: Err03Judged): { clause: string; reason: string }[] {
  if (judged.answers === 0) {
    const reason = 'no token error was answered in time (every bad token request timed out, was dropped or was served): no answer was there to judge';
    return ['ERR-03.status-401', 'ERR-03.json-body', 'ERR-03.no-secret'].map((clause) => ({ clause, reason }));
  }
  if (judged.invalidClient === 0) return [{ clause: 'ERR-03.status-401', reason: `none of the ${plural(judged.answers, 'token error')} received said "invalid_client"` }];
  return [];
}

/**
 * ERR-07.rest-malformed on an answer to a malformed token request (`what`): a clearly invalid one (`due: 'error'`)
 * must get an error response, any status of 400 or more (latitude malformed-request-answers: any error); a lenient
 * service may serve the others (`due: 'any'`). A hang or a drop is the caller's to report: there is no answer.
 */
export function err07AnswerProblem(status: number, due: 'error' | 'any', what: string, actual = `HTTP ${status}`): Problem | undefined {
  if (due === 'any' || status >= 400) return undefined;
  return problem('ERR-07.rest-malformed', `${what} was not answered with an error`, 'an error response (HTTP 400 or more: RFC 6749 §5.2 suggests invalid_request or unsupported_grant_type)', actual);
}
