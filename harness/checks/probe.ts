import {
  attribute, classifyRest, classifySoap, describeRestAnswer, describeSoapAnswer, isTokenRefusal, type Attribution, type Factor, type Observed, type RestAnswer,
  type SoapAnswer,
} from '../classify/index.ts';
import { actionBody, rawBody, type SoapBody } from '../soap/index.ts';
import type { Environment } from '../catalog/index.ts';
import { parseApiRef, type ApiRef, type HttpResponse, type RestProbe, type SoapProbe } from '../targets/index.ts';
import { baseUrl } from './rest.ts';
import { CheckFailure } from './failure.ts';
import { inSomeEnvironment } from './environments.ts';
import { Inconclusive, PrerequisiteFailed } from './errors.ts';
import type { CheckContext } from './rule-test.ts';
import { obtainSoapToken, openSession, sessionClose, soapCall, type SoapExchange } from './soap.ts';
import { gatewayError, SERVER_ERROR_RESENDS } from '../targets/throttle.ts';

/** What to configure when a probe says nothing about the token, by probe. */
export const PROBE_HINTS = {
  rest: 'declare in the target config, as "probes.rest", a REST API that the main account may call with a sessionless token and that answers 2xx to a bare request (default: GET /v1/lists/supported/shop/themes)',
  soapSessionless: 'declare in the target config, as "probes.soapSessionless", a SOAP action that accepts sessionless tokens and answers a bare request without a fault, with its body XML if it needs one (default: BargainFinderMaxRQ)',
  soapSession: 'declare in the target config, as "probes.soapSession", the action of the Refresh Session API or another request a session token may make (default: OTA_PingRQ)',
} as const;

export type ProbeName = keyof typeof PROBE_HINTS;

/** A REST call and what its answer means. */
export interface RestProbeResult {
  readonly response: HttpResponse;
  readonly answer: RestAnswer;
  /** The request and its status in one line (`GET CERT /v1/lists/supported/shop/themes → 400`), for messages. */
  readonly line: string;
}

/** Calls a REST API (the target's REST probe unless given) with `Authorization: <authorization>` (`null`: none). */
export async function callRest(ctx: CheckContext, env: Environment, authorization: string | null, probe: RestProbe = ctx.target.probes.rest): Promise<RestProbeResult> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (authorization !== null) headers.authorization = authorization;
  const body = probe.method === 'POST' ? (probe.body ?? '{}') : undefined;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await ctx.http.request({
    method: probe.method,
    url: `${baseUrl(ctx, env)}${probe.path}${probe.query ? `?${probe.query}` : ''}`,
    headers,
    ...(body !== undefined && { body }),
  });
  const line = `${probe.method} ${env.toUpperCase()} ${probe.path} with ${authorization === null ? 'no Authorization header' : authorizationLabel(authorization)} → ${response.status}`;
  const result: RestProbeResult = { response, answer: classifyRest(response.status), line };
  resends.set(result, async () => restAnswer(await callRest(ctx, env, authorization, probe)));
  return result;
}

/** How to send a probe's request once more (the same request), by its result: a server error is resent before it is judged. */
const resends = new WeakMap<object, () => Promise<Answer>>();

/** What an Authorization header is, without its secret: the scheme and, for a bearer token, where it came from is the caller's to say. */
function authorizationLabel(authorization: string): string {
  const scheme = /^\S*/.exec(authorization)?.[0] ?? '';
  return scheme === '' ? 'an Authorization header' : `${scheme} …`;
}

/** A REST call's answer for expectAccepted, expectRefused and attribution. */
export function restAnswer(r: RestProbeResult): Answer {
  return withResend(rest(r.answer, r.line), r.response, resends.get(r));
}

/** A SOAP call's answer for expectAccepted, expectRefused and attribution. */
export function soapAnswer(r: SoapProbeResult): Answer {
  return withResend(soap(r.answer, `${r.request.action ?? 'a SOAP request'} → ${r.response.status}`), r.response, resends.get(r));
}

/** A gateway's error the transport got again on each of its resends is reproduced already (harness/targets/throttle.ts). */
function withResend(a: Answer, response: HttpResponse, resend: (() => Promise<Answer>) | undefined): Answer {
  if (gatewayError(response) && (response.resent ?? 0) >= SERVER_ERROR_RESENDS) return { ...a, reproduced: true };
  return resend ? { ...a, resend } : a;
}

/** The body of a SOAP probe: the configured XML, or the harness's own for the action. */
export function probeBody(probe: SoapProbe): SoapBody {
  return probe.body !== undefined ? rawBody(probe.body) : actionBody(probe.action);
}

/** A SOAP exchange and what its answer means. */
export type SoapProbeResult = SoapExchange & { readonly answer: SoapAnswer };

/** SOAP actions the harness tries, after a default probe the service does not offer, in this order. */
const CANDIDATES: Readonly<Record<'soapSession' | 'soapSessionless', readonly string[]>> = {
  soapSession: ['OTA_PingRQ', 'OTA_HotelAvailLLSRQ', 'BargainFinderMaxRQ'],
  soapSessionless: ['BargainFinderMaxRQ', 'OTA_PingRQ', 'OTA_HotelAvailLLSRQ'],
};

const resolved = new WeakMap<object, Map<string, Promise<SoapProbe>>>();

/**
 * The SOAP probe a check uses: the target's, when it declared one. Otherwise the default, or — when the service does
 * not answer it with a success for a fresh token of that kind (it may not offer it: the document leaves each API's
 * token kinds to its reference) — the first candidate that does (also the SOAP actions the target declares in
 * `tokenKinds`). Found once per target; none found is inconclusive, with what each candidate answered.
 */
export function soapProbe(ctx: CheckContext, name: 'soapSession' | 'soapSessionless'): Promise<SoapProbe> {
  const declared = ctx.target.probes[name];
  if (ctx.target.declaredProbes.includes(name)) return Promise.resolve(declared);
  let byName = resolved.get(ctx.target);
  if (!byName) resolved.set(ctx.target, (byName = new Map()));
  let probe = byName.get(name);
  if (!probe) {
    probe = discover(ctx, name);
    probe.catch(() => undefined);
    byName.set(name, probe);
  }
  return probe;
}

async function discover(ctx: CheckContext, name: 'soapSession' | 'soapSessionless'): Promise<SoapProbe> {
  const kind = name === 'soapSession' ? 'session' : 'sessionless';
  const fromDeclarations = Object.entries(ctx.target.declared.tokenKinds)
    .filter(([api, kinds]) => kinds.includes(kind) && parseApiRef(api).kind === 'soap')
    .map(([api]) => api);
  const candidates = [...new Set([ctx.target.probes[name].action, ...CANDIDATES[name], ...fromDeclarations])];
  const tried: string[] = [];
  let refusals = 0;
  const attempt = async (env: Environment, token: string, conversationId?: string): Promise<SoapProbe | undefined> => {
    for (const action of candidates) {
      const probe = action === ctx.target.probes[name].action ? ctx.target.probes[name] : { action };
      const { answer } = await callSoapWith(ctx, env, token, probe, conversationId);
      if (answer.kind === 'success') return probe;
      if (answer.kind === 'refused' && answer.why === 'invalid-token') refusals++;
      tried.push(`${action}: ${describeSoapAnswer(answer)}`);
    }
    return undefined;
  };
  // A token from the first environment that gives one (every route before a skip); the actions are tried there.
  const found = await inSomeEnvironment(ctx, async (env) => {
    if (kind === 'sessionless') return attempt(env, await obtainSoapToken(ctx, env));
    const session = await openSession(ctx, env);
    try {
      return await attempt(env, session.token, session.conversationId);
    } finally {
      await sessionClose(ctx, session);
    }
  });
  if (found) return found;
  if (refusals === candidates.length) {
    // Every action refused the token as invalid: the token, not the actions, is the likelier cause.
    throw new PrerequisiteFailed(`every SOAP action the harness knows refused a fresh ${kind} token as invalid (${tried.join('; ')})`, kind === 'session' ? ['SESS-01'] : ['LIFE-02', 'STOK-01']);
  }
  throw new Inconclusive(`no SOAP action the harness knows answered a fresh ${kind} token with a success (${tried.join('; ')}); ${PROBE_HINTS[name]}`);
}

/** Calls a SOAP action (the target's sessionless probe unless given) with a token in the BinarySecurityToken. */
export async function callSoap(
  ctx: CheckContext,
  env: Environment,
  token: string,
  options: { probe?: SoapProbe; conversationId?: string } = {},
): Promise<SoapProbeResult> {
  return callSoapWith(ctx, env, token, options.probe ?? (await soapProbe(ctx, 'soapSessionless')), options.conversationId);
}

/** Calls the session probe (the Refresh Session API, or what stands for it) with a session's token. */
export async function callSessionProbe(ctx: CheckContext, env: Environment, token: string, conversationId?: string): Promise<SoapProbeResult> {
  return callSoapWith(ctx, env, token, await soapProbe(ctx, 'soapSession'), conversationId);
}

async function callSoapWith(ctx: CheckContext, env: Environment, token: string, probe: SoapProbe, conversationId: string | undefined): Promise<SoapProbeResult> {
  const x = await soapCall(ctx, env, {
    action: probe.action,
    security: { kind: 'binarySecurityToken', token },
    body: probeBody(probe),
    ...(conversationId !== undefined && { conversationId }),
  });
  const result: SoapProbeResult = { ...x, answer: soapAnswerOf(ctx, x) };
  resends.set(result, async () => soapAnswer(await callSoapWith(ctx, env, token, probe, conversationId)));
  return result;
}

/** What a SOAP exchange's answer means, with the target's own fault codes. */
export function soapAnswerOf(ctx: CheckContext, x: SoapExchange): SoapAnswer {
  const answer = classifySoap({ status: x.response.status, envelope: x.envelope, parseError: x.parseError }, ctx.target.faultCodes);
  if (answer.kind === 'not-soap') notSoapContexts.set(answer, ctx);
  return answer;
}

/** The check context of each answer without a SOAP envelope, for its control ({@link inconclusiveAnswer}). */
const notSoapContexts = new WeakMap<SoapAnswer, CheckContext>();
/** Per target: how it answers a clearly invalid token (undefined: with a SOAP envelope, as ERR-04 requires). */
const refusalShapes = new WeakMap<object, Promise<string | undefined>>();

/** A token nobody issued: ERR-04's case, which the document says gets a SOAP fault (and the control of checks that need one). */
export const UNKNOWN_TOKEN = 'T1RLAQ-tds-conformance-control-unknown-token';

/**
 * Whether the target answers a clearly invalid token without a SOAP envelope (a gateway that puts a page of its own
 * in place of every fault, say): then an answer without an envelope where a refusal may be due cannot be told from a
 * refusal, and ERR-04 judges the shape. Sent once per target: `SessionCloseRQ` with a token nobody issued.
 */
function refusalWithoutEnvelope(ctx: CheckContext): Promise<string | undefined> {
  let shape = refusalShapes.get(ctx.target);
  if (!shape) {
    shape = (async () => {
      const env = (['cert', 'prod'] as const).find((e) => ctx.target.environments[e]);
      if (!env) return undefined;
      const x = await soapCall(ctx, env, { action: 'SessionCloseRQ', security: { kind: 'binarySecurityToken', token: UNKNOWN_TOKEN }, body: actionBody('SessionCloseRQ') });
      if (x.envelope) return undefined;
      return `SessionCloseRQ with a token nobody issued got no SOAP envelope either (HTTP ${x.response.status}): the target does not answer refusals with a SOAP fault (ERR-04 judges that)`;
    })();
    shape.catch(() => undefined);
    refusalShapes.set(ctx.target, shape);
  }
  return shape;
}

/**
 * The error for an answer that says nothing about what a check asks (`message`). An answer without a SOAP envelope
 * gets a control first: when a clearly invalid token gets no envelope either, the answer may be the target's refusal,
 * and the check is `skipped` after ERR-04 (the shape of refusals), not `error`.
 */
export function inconclusiveAnswer(answer: RestAnswer | SoapAnswer, message: string): Inconclusive {
  const ctx = answer.kind === 'not-soap' ? notSoapContexts.get(answer) : undefined;
  if (!ctx) return new Inconclusive(message);
  return new Inconclusive(message, async () => {
    const why = await refusalWithoutEnvelope(ctx);
    return why === undefined ? undefined : new PrerequisiteFailed(`${message}; ${why}`, ['ERR-04']);
  });
}

/**
 * `resend`: the same request once more (set by {@link restAnswer} and {@link soapAnswer}), for a server error.
 * `reproduced`: a server error the request got again each time it was resent ({@link settled}).
 */
type Answer =
  | { readonly protocol: 'rest'; readonly answer: RestAnswer; readonly line?: string; readonly resend?: () => Promise<Answer>; readonly reproduced?: true }
  | { readonly protocol: 'soap'; readonly answer: SoapAnswer; readonly line?: string; readonly resend?: () => Promise<Answer>; readonly reproduced?: true };

const describe = (a: Answer) => (a.protocol === 'rest' ? describeRestAnswer(a.answer) : describeSoapAnswer(a.answer));
const accepted = (a: Answer) => a.answer.kind === 'success';
const refused = (a: Answer) => (a.protocol === 'rest' ? isTokenRefusal(a.answer) : a.answer.kind === 'refused');
/**
 * A server error: a REST 5xx, or an answer to a SOAP request that is no SOAP envelope with a status of 500 or more (a
 * gateway's error page). Alone, it says nothing about the request (a gateway's hiccup): the request is sent again
 * ({@link settled}), and a server error that was not reproduced is never attributed to a factor.
 */
export const isServerError = (a: Answer) => (a.protocol === 'rest' ? a.answer.kind === 'server-error' : a.answer.kind === 'not-soap' && a.answer.status >= 500);
/**
 * Answers that say nothing about any request (rate limiting, a busy service, a server error seen once): never
 * attributed to a factor. A server error the request got every time it was sent ({@link settled}) is the service's
 * answer to that request (a gateway that puts a 500 page in place of every SOAP fault, say): it is attributed like
 * any other, against controls served before and after it.
 */
const transient = (a: Answer) => a.answer.kind === 'rate-limited' || a.answer.kind === 'busy' || (isServerError(a) && !a.reproduced);

export { SERVER_ERROR_RESENDS };

/**
 * The answer to judge: `a`, or — when it is a server error and the request can be sent again — the answer to the
 * same request sent again (at most {@link SERVER_ERROR_RESENDS} times), so that one gateway hiccup between two
 * served controls is not read as a refusal. A server error that came back every time is marked `reproduced`; one
 * that could not be resent stays transient (inconclusive).
 */
export async function settled(a: Answer): Promise<Answer> {
  let answer = a;
  let resent = 0;
  while (resent < SERVER_ERROR_RESENDS && isServerError(answer) && answer.resend) {
    answer = await answer.resend();
    resent++;
  }
  return resent === SERVER_ERROR_RESENDS && isServerError(answer) ? { ...answer, reproduced: true } : answer;
}

/** `line`: the request and its answer in one line (`GET /v1/lists/… → 400`), for messages that show both exchanges. */
export function rest(answer: RestAnswer, line?: string): Answer {
  return { protocol: 'rest', answer, ...(line !== undefined && { line }) };
}

export function soap(answer: SoapAnswer, line?: string): Answer {
  return { protocol: 'soap', answer, ...(line !== undefined && { line }) };
}

/** An answer as attribution sees it (harness/classify/attribute.ts). */
export function observed(a: Answer): Observed {
  return {
    outcome: accepted(a) ? 'served' : refused(a) ? 'refused' : 'other',
    ...(transient(a) && { transient: true }),
    line: a.line ? `${a.line}: ${describe(a)}` : describe(a),
  };
}

/**
 * The control of a trial: the same request with one factor changed (`factor`), which the service served (`before`);
 * `again` sends it once more after the trial, so that an answer to the trial that is neither a success nor a refusal
 * is attributed only when the service served the control on both sides of it.
 */
export interface Control {
  readonly factor: Factor;
  readonly before: Answer;
  readonly again?: () => Promise<Answer>;
}

/** The verdict on an answer: as classified, or — when it is neither a success nor a refusal — by difference from its control. */
export async function attributeAnswer(a: Answer, control?: Control): Promise<Attribution> {
  return (await judged(a, control)).verdict;
}

/** The answer judged (after resending a server error: {@link settled}) and the verdict on it. */
async function judged(first: Answer, control?: Control): Promise<{ answer: Answer; verdict: Attribution }> {
  const a = await settled(first);
  return { answer: a, verdict: await attributeSettled(a, control) };
}

async function attributeSettled(a: Answer, control?: Control): Promise<Attribution> {
  const trial = observed(a);
  if (!control) return attribute(trial, 'token');
  const controls = [observed(control.before)];
  if (trial.outcome === 'other' && !trial.transient && controls[0]!.outcome === 'served' && control.again) controls.push(observed(await control.again()));
  return attribute(trial, control.factor, controls);
}

/**
 * The token must have been accepted: a success passes, a refusal fails (`what` says what was refused), and so does
 * any other answer when a control differing in one factor was served (attribution by difference); anything else (a
 * probe the service does not offer, a fault that is not a refusal, a server error that stays when the request is sent
 * again) is inconclusive, with `hint`.
 */
export async function expectAccepted(first: Answer, what: string, hint: string, expected = 'accepted', control?: Control): Promise<void> {
  const { answer: a, verdict } = await judged(first, control);
  if (verdict.kind === 'served') return;
  if (verdict.kind === 'refused') {
    throw new CheckFailure(verdict.by === 'answer' ? `${what} was refused` : `${what} was refused: ${verdict.because}`, { expected, actual: describe(a) });
  }
  throw inconclusiveAnswer(a.answer, `${what}: the answer was ${describe(a)}, which says nothing about the token (${verdict.why}); ${hint}`);
}

/** The token must have been refused: a refusal (by classification or by difference) passes, a success fails, anything else is inconclusive. */
export async function expectRefused(first: Answer, what: string, hint: string, expected = 'a refusal', control?: Control): Promise<void> {
  const { answer: a, verdict } = await judged(first, control);
  if (verdict.kind === 'refused') return;
  if (verdict.kind === 'served') throw new CheckFailure(`${what} was accepted`, { expected, actual: describe(a) });
  throw inconclusiveAnswer(a.answer, `${what}: the answer was ${describe(a)}, neither an acceptance nor a refusal of the token (${verdict.why}); ${hint}`);
}

/** Whether the answer accepted the token, or `undefined` when it says nothing about it. */
export function verdictOf(a: Answer): 'accepted' | 'refused' | undefined {
  return accepted(a) ? 'accepted' : refused(a) ? 'refused' : undefined;
}

export function describeAnswer(a: Answer): string {
  return describe(a);
}

/** Calls an API named in a declaration (a REST path or a SOAP action) with a token, and classifies the answer. */
export async function callApiRef(ctx: CheckContext, env: Environment, ref: ApiRef, token: string, conversationId?: string): Promise<Answer> {
  const api = parseApiRef(ref);
  if (api.kind === 'rest') return restAnswer(await callRest(ctx, env, `Bearer ${token}`, { method: api.method, path: api.path, ...(api.query && { query: api.query }) }));
  return soapAnswer(await callSoap(ctx, env, token, { probe: { action: api.action }, ...(conversationId !== undefined && { conversationId }) }));
}

export type { Answer };
