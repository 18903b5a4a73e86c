/**
 * A target's profile, learned from a live run: for every service-side latitude of the catalog, the values the target
 * showed (or `unobserved`, with why: never guessed), the latency it answered with, the throttling met, and the
 * deviations it showed, each tied to the rule it broke and, where the simulator can reproduce it, to the simulator's
 * defect. `serve --profile` makes a stand-in of it (see `serve.ts`). No secret, token, account value or header value
 * that identifies a caller is in it.
 */
import { latitudes } from '../catalog/index.ts';
import type { Report } from '../report/model.ts';
import type { DefectId } from '../sim/defects.ts';
import type { LatitudeProfile } from '../sim/latitude.ts';
import { learnShape } from '../sim/token-shape.ts';
import { CONFORMING_TESTS } from './conforming-values.ts';
import type { ProfileFacts } from './facts.ts';
import { PROFILE_SCHEMA, type LatitudeObservation, type LearnedDeviation, type LearnedProfile, type Percentiles } from './types.ts';

export { PROFILE_FILE, PROFILE_SCHEMA } from './types.ts';
export type { LatitudeObservation, LearnedDeviation, LearnedProfile, Percentiles } from './types.ts';


/** Which profile values each service-side latitude of the catalog holds. */
export const LATITUDE_FIELDS: Readonly<Record<string, readonly (keyof LatitudeProfile)[]>> = {
  'token-format': ['tokenShape', 'restTokenAnyCase'],
  'token-extra-fields': ['tokenExtraFields', 'tokenFieldOrder', 'tokenSourceIpEcho'],
  'json-content-type-parameters': ['jsonContentType'],
  'extra-response-headers': ['extraHeaders'],
  'error-description-wording': ['syntaxDescription', 'wrongClientDescription'],
  'other-token-errors': ['otherTokenErrorStatus', 'otherTokenErrorCode'],
  'content-type-leniency': ['missingContentType'],
  'api-refusal-shape': ['apiRefusalStatus', 'apiRefusalBody'],
  timing: ['latencyMs'],
  throttling: ['throttle'],
  'gateway-errors': ['gatewayErrors'],
  'soap-prefixes': ['soapEnvPrefix', 'ebPrefix'],
  'soap-header-details': ['responseMessageId', 'responseTimestamp', 'bstAttributes', 'ebVersion', 'headerBlock', 'responseHeader'],
  'soap-response-bodies': ['tokenCreateBody', 'createBody', 'closeBody', 'closeAction'],
  'business-payloads': ['businessBody'],
  'fault-status': ['faultStatus'],
  'fault-texts': ['invalidTokenFaultstring', 'invalidTokenStackTrace', 'stackTracePlacement'],
  'other-fault-codes': ['authFaultCode', 'poolFullFaultCode', 'unknownActionFaultCode', 'authFaultEchoesToken'],
  'api-token-kinds': ['sessionlessAction'],
  'session-timeout-per-account': ['sessionTimeoutSeconds'],
  'pool-size': ['poolSize'],
  'malformed-request-answers': ['garbageAnswer'],
};

/** The most frequent value of a fact, or undefined when it was never seen. */
function majority(facts: ProfileFacts, name: string): string | undefined {
  const values = Object.entries(facts.counts[name] ?? {});
  if (values.length === 0) return undefined;
  return values.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
}

function percentiles(list: readonly number[]): Percentiles | undefined {
  if (list.length === 0) return undefined;
  const s = [...list].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return { count: s.length, p50: at(0.5), p90: at(0.9), p99: at(0.99) };
}

export interface LearnContext {
  readonly target: string;
  readonly tool: string;
  readonly report: Pick<Report, 'rules' | 'throttling'>;
  /** The pool size and inactivity timeout the target config declares (the run established them where SESS-04 and SESS-03 were checked). */
  readonly sessionPoolSize?: number | undefined;
  readonly sessionTimeoutSeconds?: number | undefined;
  readonly now?: Date;
  /** Account values (EPR, PCC) that must not appear in the profile: a text that quotes one shows «account» instead. */
  readonly accountValues?: readonly string[];
}

/** `value` with every string masked where it quotes an account value (3 characters or more). */
function masked<T>(value: T, accountValues: readonly string[]): T {
  const values = accountValues.filter((v) => v.length >= 3).sort((a, b) => b.length - a.length);
  if (values.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return values.reduce((s, a) => s.split(a).join('«account»'), v);
    if (Array.isArray(v)) return v.map(walk);
    // A token shape is no text anybody wrote: its alphabet holds every character, account values' included.
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'tokenShape' ? x : walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** Turns a run's facts and verdicts into a learned profile. */
export function learnProfile(facts: ProfileFacts, ctx: LearnContext): LearnedProfile {
  const values: Record<string, unknown> = {};
  const why: Record<string, string> = {};
  const set = <K extends keyof LatitudeProfile>(key: K, value: LatitudeProfile[K] | undefined, reason: string) => {
    if (value === undefined) why[key] = reason;
    else values[key] = value;
  };

  const shape = learnShape(facts.tokens);
  set('tokenShape', shape?.shape, 'no access token was seen');
  // A run never presents an issued token in another letter case (API-02's tampered token differs under case folding).
  set('restTokenAnyCase', undefined, 'not seen: no request presents an issued token in another letter case');
  const fields = majority(facts, 'tokenFields');
  const keys = fields ? (JSON.parse(fields) as string[]) : undefined;
  set('tokenExtraFields', keys && keys.some((k) => !['access_token', 'token_type', 'expires_in'].includes(k)), 'no token answer was seen');
  set('tokenFieldOrder', keys && (keys.indexOf('access_token') <= keys.indexOf('expires_in') ? 'document' : 'reversed'), 'no token answer was seen');
  const echo = majority(facts, 'tokenSourceIpEcho');
  set('tokenSourceIpEcho', echo === undefined ? undefined : echo === 'true', 'no token was issued to a request with source_ip');
  set('jsonContentType', majority(facts, 'jsonContentType'), 'no JSON answer was seen');
  const answers = facts.counts.answers?.json ?? 0;
  // A header the target sends on most of its JSON answers is its own.
  set('extraHeaders', answers > 0 ? Object.entries(facts.counts.extraHeader ?? {}).filter(([, n]) => n * 2 >= answers).map(([name]) => name).sort() : undefined, 'no JSON answer was seen');
  set('syntaxDescription', majority(facts, 'syntaxDescription'), 'no answer to missing or malformed credentials was seen (ERR-01)');
  set('wrongClientDescription', majority(facts, 'wrongClientDescription'), 'no answer to a wrong client ID or secret was seen (ERR-02)');
  const otherStatus = majority(facts, 'otherTokenErrorStatus');
  set('otherTokenErrorStatus', otherStatus === undefined ? undefined : (Number(otherStatus) as LatitudeProfile['otherTokenErrorStatus']), 'no answer to a wrong grant_type was seen');
  const grant = majority(facts, 'otherTokenErrorCode.grant');
  const content = majority(facts, 'otherTokenErrorCode.content');
  set('otherTokenErrorCode', grant === undefined ? undefined : grant === 'unsupported_grant_type' && (content === undefined || content === 'invalid_request') ? 'public' : (grant as LatitudeProfile['otherTokenErrorCode']), 'no answer to a wrong grant_type was seen');
  set('missingContentType', majority(facts, 'missingContentType') as LatitudeProfile['missingContentType'] | undefined, 'no token request without Content-Type was seen');
  const refusal = majority(facts, 'apiRefusalStatus');
  set('apiRefusalStatus', refusal === undefined ? undefined : (Number(refusal) as LatitudeProfile['apiRefusalStatus']), 'no refused API call was seen');
  const refusalBody = majority(facts, 'apiRefusalBody');
  set('apiRefusalBody', refusalBody === 'other' ? undefined : (refusalBody as LatitudeProfile['apiRefusalBody'] | undefined), refusalBody === 'other' ? 'the API refusals have a body of a shape the simulator does not make' : 'no refused API call was seen');
  const all = [...facts.durations.token, ...facts.durations.rest, ...facts.durations.soap];
  set('latencyMs', all.length ? Math.max(0, Math.floor(percentiles(all)!.p50)) : undefined, 'no answer was timed');
  const t = ctx.report.throttling;
  set('throttle', t === undefined ? undefined : (t.statuses['429'] ?? 0) > 0 ? '429' : (t.statuses['503'] ?? 0) > 0 ? '503' : 'none', 'the run kept no throttling counts');
  // The status the gateway's resent errors had most (502 on a tie); none resent: none.
  const [bad, timeout] = [t?.gatewayResent?.['502'] ?? 0, t?.gatewayResent?.['504'] ?? 0];
  set('gatewayErrors', t === undefined ? undefined : bad + timeout === 0 ? 'none' : bad >= timeout ? '502' : '504', 'the run kept no throttling counts');
  for (const key of ['soapEnvPrefix', 'ebPrefix'] as const) {
    // No prefix (the default namespace) is a form of the soap-prefixes latitude the simulator does not write.
    const v = majority(facts, key);
    set(key, v === '' ? undefined : v, v === '' ? 'seen without a prefix (a default namespace), a form the simulator does not make' : 'not seen: no SOAP answer showed it');
  }
  for (const key of ['ebVersion', 'closeAction', 'invalidTokenFaultstring', 'invalidTokenStackTrace', 'authFaultCode', 'unknownActionFaultCode'] as const) {
    set(key, majority(facts, key), `not seen: no SOAP answer showed it`);
  }
  set('poolFullFaultCode', majority(facts, 'poolFullFaultCode'), 'not seen: no SessionCreateRQ was refused for a full pool (SESS-04 fills the pool with --allow-opt-in and sessionPoolSize in the config)');
  const echoes = majority(facts, 'authFaultEchoesToken');
  set('authFaultEchoesToken', echoes === undefined ? undefined : echoes === 'true', 'not seen: no TokenCreateRQ or SessionCreateRQ carrying a BinarySecurityToken was refused for its credentials');
  for (const key of ['responseMessageId', 'responseTimestamp', 'bstAttributes', 'headerBlock', 'responseHeader', 'tokenCreateBody', 'createBody', 'closeBody', 'stackTracePlacement', 'businessBody', 'sessionlessAction', 'garbageAnswer'] as const) {
    const v = majority(facts, key);
    set(key, v === 'other' ? undefined : (v as LatitudeProfile[typeof key] | undefined), v === 'other' ? 'seen in a form the simulator does not make' : 'not seen: no SOAP answer showed it');
  }
  const faultStatus = majority(facts, 'faultStatus');
  set('faultStatus', faultStatus === undefined ? undefined : Number(faultStatus), 'no SOAP fault was seen');
  // The pool size the config declares is established where the run filled the pool and was refused at that size.
  const clause = (id: string) => ctx.report.rules.flatMap((r) => r.clauses ?? []).find((c) => c.id === id)?.status;
  set('poolSize', clause('SESS-04.pool-full-refused') === 'checked' ? ctx.sessionPoolSize : undefined, 'the run did not establish the pool size (SESS-04.pool-full-refused was not checked: run with --allow-opt-in and sessionPoolSize in the config)');
  set('sessionTimeoutSeconds', clause('SESS-03.default-timeout') === 'checked' || clause('SESS-03.account-timeout') === 'checked' ? ctx.sessionTimeoutSeconds : undefined, 'the run did not establish the inactivity timeout (SESS-03 needs control of the clock)');

  // A value that breaks a rule is the target's deviation, not its style: the conforming stand-in keeps the simulator's
  // own there (the deviation is listed, and served with --with-deviations where the simulator can make it).
  const deviating = (key: keyof LatitudeProfile, rule: string, ok: (v: never) => boolean) => {
    if (key in values && !ok(values[key] as never)) {
      delete values[key];
      why[key] = `the target's value breaks ${rule} (listed under deviations): the conforming stand-in keeps the simulator's own`;
    }
  };
  for (const t of CONFORMING_TESTS) deviating(t.key, t.rule, t.ok);
  const observedLatitudes: Record<string, LatitudeObservation> = {};
  for (const l of latitudes.filter((x) => x.side !== 'client')) {
    const fs = LATITUDE_FIELDS[l.id] ?? [];
    const seen = fs.filter((f) => f in values);
    observedLatitudes[l.id] = seen.length > 0
      ? { observed: true, fields: seen, ...(seen.length < fs.length && { unobservedFields: fs.filter((f) => !(f in values)) }) }
      : { observed: false, reason: fs.map((f) => why[f]).filter(Boolean)[0] ?? 'not observed' };
  }
  const latency: Partial<Record<'token' | 'rest' | 'soap', Percentiles>> = {};
  for (const k of ['token', 'rest', 'soap'] as const) {
    const p = percentiles(facts.durations[k]);
    if (p) latency[k] = p;
  }
  return masked({
    schema: PROFILE_SCHEMA,
    target: ctx.target,
    learnedAt: (ctx.now ?? new Date()).toISOString(),
    tool: ctx.tool,
    values: values as Partial<LatitudeProfile>,
    latitudes: observedLatitudes,
    ...(shape && { tokens: { lengths: shape.lengths, samples: shape.samples } }),
    latency,
    ...(t && t.throttled > 0 && { throttling: { statuses: t.statuses, retryAfter: t.retryAfter } }),
    deviations: deviationsOf(facts, ctx.report),
  }, ctx.accountValues ?? []);
}

/**
 * The deviations of the run, each with what the facts show of it and the simulator defect that reproduces it. A rule
 * that failed (or warned) whose deviation the simulator cannot reproduce is listed without a defect.
 */
function deviationsOf(facts: ProfileFacts, report: Pick<Report, 'rules'>): LearnedDeviation[] {
  const out: LearnedDeviation[] = [];
  const broke = (id: string) => report.rules.find((r) => r.id === id && (r.status === 'fail' || r.status === 'warn'));
  const add = (id: string, observed: string, defect?: DefectId) => {
    const r = broke(id);
    if (r && !out.some((d) => d.rule === id && d.observed === observed)) out.push({ rule: id, status: r.status as 'fail' | 'warn', observed, ...(defect && { defect }) });
  };
  const tokenType = majority(facts, 'tokenType');
  if (tokenType !== undefined && tokenType !== 'bearer') add('REST-03', `token_type ${JSON.stringify(tokenType)}`, tokenType === 'Bearer' ? 'rest03-token-type-capitalized' : undefined);
  const expiresIn = majority(facts, 'expiresIn');
  if (expiresIn?.startsWith('"')) add('REST-03', `expires_in as a string (${expiresIn})`, 'rest03-expires-in-string');
  else if (expiresIn === '390') {
    add('REST-03', 'expires_in 390 (the former lifetime)', 'rest03-legacy-lifetime');
    add('LIFE-01', 'tokens that live 390 s', 'rest03-legacy-lifetime');
  }
  const type = majority(facts, 'tokenContentType');
  if (type !== undefined && !/^application\/([\w.-]+\+)?json\b/i.test(type)) add('REST-05', `token answers sent as ${type}`, type.toLowerCase().startsWith('text/plain') ? 'rest05-text-plain' : undefined);
  const invalidStatus = majority(facts, 'invalidClientStatus');
  if (invalidStatus === '400') add('ERR-03', 'invalid_client answered with status 400', 'err03-status-400');
  const faultcode = majority(facts, 'faultcodeForm');
  if (faultcode?.startsWith('(unprefixed)')) add('ERR-04', 'the faultcode without a namespace prefix', 'err04-unprefixed-faultcode');
  else if (faultcode === 'Client.InvalidToken') add('ERR-04', 'faultcode Client.InvalidToken', 'err04-wrong-faultcode');
  if (majority(facts, 'faultstringQuotes') === 'false') add('ERR-04', 'a faultstring that does not quote the token', 'err04-token-not-quoted');
  if (majority(facts, 'invalidTokenStackTrace') === '(none)') add('ERR-04', 'a fault without detail/StackTrace', 'err04-no-stacktrace');
  // Deviations the facts cannot tell apart, read from the failing checks' own messages (the harness's words).
  const failing = (id: string) => report.rules.find((r) => r.id === id)?.checks.flatMap((c) => (c.status === 'fail' && 'message' in c ? [String(c.message)] : [])) ?? [];
  const api02 = failing('API-02');
  // Only tokens nobody issued were accepted (a missing or malformed Authorization header still refused).
  if (api02.length > 0 && api02.every((m) => /^an API request with (?:a tampered token|an unknown T1RLAQ… token|a garbage token)\b.* was accepted$/.test(m))) add('API-02', 'a tampered token accepted on the REST APIs', 'api02-unknown-token-accepted');
  const sess02 = failing('SESS-02');
  const pingServed = sess02.find((m) => /^\S+ with the token of the closed session was accepted$/.test(m));
  const businessServed = sess02.find((m) => /^\S+ with the token of the closed session \(accepted before the close\) was accepted$/.test(m));
  const slotKept = sess02.some((m) => m === 'SessionCreateRQ was refused after a session of the full pool was closed' || /(?:keep|still hold) their slots \(SESS-02\b/.test(m));
  if (pingServed) add('SESS-02', 'a closed session\'s token still accepted', 'sess02-close-keeps-token');
  else if (businessServed) add('SESS-02', 'a closed session\'s token refused by the ping but accepted by a business action', 'sess02-closed-token-serves-business');
  else if (slotKept) add('SESS-02', 'a closed session kept its pool slot', 'sess02-close-keeps-slot');
  // Every other broken rule: listed with its first message, not reproduced.
  for (const r of report.rules) {
    if ((r.status !== 'fail' && r.status !== 'warn') || r.side !== 'service' || out.some((d) => d.rule === r.id)) continue;
    const c = r.checks.find((x) => x.status === r.status);
    out.push({ rule: r.id, status: r.status, observed: (c && 'message' in c ? String(c.message) : r.reason ?? '').split('\n')[0]!.slice(0, 300) });
  }
  return out;
}
