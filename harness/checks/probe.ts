import { classifyRest, classifySoap, describeRestAnswer, describeSoapAnswer, isTokenRefusal, type RestAnswer, type SoapAnswer } from '../classify/index.ts';
import { actionBody, rawBody, type SoapBody } from '../soap/index.ts';
import type { Environment } from '../spec/index.ts';
import { parseApiRef, type ApiRef, type HttpResponse, type RestProbe, type SoapProbe } from '../targets/index.ts';
import { baseUrl } from './rest.ts';
import { CheckFailure } from './failure.ts';
import { Inconclusive, PrerequisiteFailed, type CheckContext } from './rule-test.ts';
import { obtainSoapToken, openSession, sessionClose, soapCall, type SoapExchange } from './soap.ts';

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
  return { response, answer: classifyRest(response.status) };
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
  const attempt = async (token: string, conversationId?: string): Promise<SoapProbe | undefined> => {
    for (const action of candidates) {
      const probe = action === ctx.target.probes[name].action ? ctx.target.probes[name] : { action };
      const { answer } = await callSoapWith(ctx, 'cert', token, probe, conversationId);
      if (answer.kind === 'success') return probe;
      if (answer.kind === 'refused' && answer.why === 'invalid-token') refusals++;
      tried.push(`${action}: ${describeSoapAnswer(answer)}`);
    }
    return undefined;
  };
  let found: SoapProbe | undefined;
  if (kind === 'session') {
    const session = await openSession(ctx, 'cert');
    try {
      found = await attempt(session.token, session.conversationId);
    } finally {
      await sessionClose(ctx, session);
    }
  } else {
    found = await attempt(await obtainSoapToken(ctx, 'cert'));
  }
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
  return { ...x, answer: soapAnswerOf(ctx, x) };
}

/** What a SOAP exchange's answer means, with the target's own fault codes. */
export function soapAnswerOf(ctx: CheckContext, x: SoapExchange): SoapAnswer {
  return classifySoap({ status: x.response.status, envelope: x.envelope, parseError: x.parseError }, ctx.target.faultCodes);
}

type Answer = { readonly protocol: 'rest'; readonly answer: RestAnswer } | { readonly protocol: 'soap'; readonly answer: SoapAnswer };

const describe = (a: Answer) => (a.protocol === 'rest' ? describeRestAnswer(a.answer) : describeSoapAnswer(a.answer));
const accepted = (a: Answer) => a.answer.kind === 'success';
const refused = (a: Answer) => (a.protocol === 'rest' ? isTokenRefusal(a.answer) : a.answer.kind === 'refused');

export function rest(answer: RestAnswer): Answer {
  return { protocol: 'rest', answer };
}

export function soap(answer: SoapAnswer): Answer {
  return { protocol: 'soap', answer };
}

/**
 * The token must have been accepted: a success passes, a refusal fails (`what` says what was refused), anything else
 * (a probe the service does not offer, a fault that is not a refusal, a server error) is inconclusive, with `hint`.
 */
export function expectAccepted(a: Answer, what: string, hint: string, expected = 'accepted'): void {
  if (accepted(a)) return;
  if (refused(a)) throw new CheckFailure(`${what} was refused`, { expected, actual: describe(a) });
  throw new Inconclusive(`${what}: the answer was ${describe(a)}, which says nothing about the token; ${hint}`);
}

/** The token must have been refused: a refusal passes, a success fails, anything else is inconclusive, with `hint`. */
export function expectRefused(a: Answer, what: string, hint: string, expected = 'a refusal'): void {
  if (refused(a)) return;
  if (accepted(a)) throw new CheckFailure(`${what} was accepted`, { expected, actual: describe(a) });
  throw new Inconclusive(`${what}: the answer was ${describe(a)}, neither an acceptance nor a refusal of the token; ${hint}`);
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
  if (api.kind === 'rest') return rest((await callRest(ctx, env, `Bearer ${token}`, { method: api.method, path: api.path, ...(api.query && { query: api.query }) })).answer);
  return soap((await callSoap(ctx, env, token, { probe: { action: api.action }, ...(conversationId !== undefined && { conversationId }) })).answer);
}

export type { Answer };
