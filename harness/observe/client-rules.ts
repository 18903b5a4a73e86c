/**
 * The client rules judged from recorded traffic: the same rule IDs, clauses and wording as the driver-based client
 * suite (suites/client), read from what the client actually sent instead of from a scripted workload. A clause the
 * traffic cannot decide is `not-applicable`, saying what workload would exercise it.
 */
import type { Verdict } from '../soap/index.ts';
import type { FaultCodes } from '../classify/index.ts';
import { transportAnswer } from '../targets/throttle.ts';
import { limits, type Environment } from '../catalog/index.ts';
import { sentFrom, type KnownAccount, type ObservedExchange } from './exchange.ts';
import { clientKey, firstFrom, TOKEN_CREATING, type IssuedToken, type SoapMessage, type TokenRequest, type TokenUse, type Traffic } from './traffic.ts';
import { clientIdAccount } from './exchange-facts.ts';
import { pipelined, VALIDATIONS_IN_FLIGHT } from './pipelined.ts';
import { brokenBy, held, notSeen, skippedAfter, undecided, type ClauseVerdict } from './verdict.ts';
import {
  api03Problems, api04Problem, api05Problem, cred01Problems, plural, cred04Problem, env02Problems, err06LoopProblem, readCred02, cred02OtherEnvironmentProblem, rest01Problems, sess05BodyProblem, sess05HeaderProblem, sess06Problem, sess07Problem, sess08PoolProblem, sess08StormProblem, peakOpen, stormRun, soap01HeaderProblems, soap01SchemaProblem, soap01SchemaVerdict, soap03ManifestProblem, soap03UsernameTokenProblem,
  soap04ActionProblem, soap04TokenProblem, soap05ConversationProblem, soap05CpaIdProblem, life03Problem,
} from '../judges/index.ts';
import type { RuleId } from '../catalog/index.ts';
import type { HeldToken, Life03Clause, SessionSpan } from '../judges/index.ts';

/** Validates a SOAP request against the harness's request schema (the JVM validator of harness/soap). */
export type RequestValidator = (xml: string, schema: 'request' | 'request-business') => Promise<Verdict>;

export const ACCOUNT_HINT = 'give the account the application uses: --target <config.json> (its "accounts"), or --account <EPR>:<PCC>[:<REST domain>] with the password in TDS_OBSERVE_PASSWORD';

/** The hint for a clause the traffic did not exercise: an injection on the simulator upstream, or a workload. */
function hint(t: Traffic, withSim: string, otherwise: string): string {
  return t.ctx.source === 'observe-sim' ? withSim : otherwise;
}

export const at = (x: ObservedExchange): string => `#${x.seq} ${x.request.method} ${x.request.path}`;

/** The first failure among `checks`, or the pass. */
function firstFailure(clause: string, failures: readonly (ClauseVerdict | undefined)[], seen: string): ClauseVerdict {
  return failures.find((f) => f !== undefined) ?? held(clause, seen);
}

// ---- CRED ---------------------------------------------------------------------------------------------------------

/**
 * A reading of CRED-02 with the secret's environment: credentials that decode, but carry the password of another
 * environment's account (see `TokenRequest.passwordOf`), break CRED-02.inner-layer.
 */
export function withOtherEnvironment(reading: ReturnType<typeof readCred02>, r: TokenRequest): ReturnType<typeof readCred02> {
  const other = reading.ok && r.x.env !== undefined ? cred02OtherEnvironmentProblem(r.x.env, r.passwordOf) : undefined;
  return other ? { ok: false, problem: other, ...(reading.clientId !== undefined && { clientId: reading.clientId }) } : reading;
}

function cred(t: Traffic): ClauseVerdict[] {
  const requests = t.tokenRequests;
  const none = 'no token request seen: start the application with no token held and let it make a REST call';
  if (requests.length === 0) {
    return ['CRED-02.basic-scheme', 'CRED-02.outer-layer', 'CRED-02.inner-layer', 'CRED-01.v1-literal', 'CRED-01.fields', 'CRED-04.default-domain'].map((c) => notSeen(c, none));
  }
  // The judge of the client suite (harness/judges): the scheme, then both base64 layers, on every token request.
  const read = requests.map((r) => ({ r, reading: withOtherEnvironment(readCred02(r.authorization), r) }));
  const firstOf = (clause: string) => read.find((b) => !b.reading.ok && b.reading.problem.clause === clause);
  const schemeFail = firstOf('CRED-02.basic-scheme');
  const outer = firstOf('CRED-02.outer-layer');
  const inner = firstOf('CRED-02.inner-layer');
  const layered = read.filter((b) => b.reading.ok || b.reading.problem.clause !== 'CRED-02.basic-scheme');
  // CRED-01 and CRED-04 are judged wherever the Client ID half decodes, even when the secret half does not (CRED-02).
  const decoded = read.flatMap((b) => (b.reading.clientId !== undefined ? [{ r: b.r, clientId: b.reading.clientId }] : []));
  const verdictOf = (b: typeof schemeFail) => (b && !b.reading.ok ? brokenBy(b.reading.problem, b.r.x) : undefined);
  const out: ClauseVerdict[] = [verdictOf(schemeFail) ?? held('CRED-02.basic-scheme', `${plural(requests.length, 'token request')}, each with Basic credentials`)];
  const layersSeen = `${plural(layered.length, 'Basic credential')} decoded`;
  if (layered.length === 0) {
    out.push(notSeen('CRED-02.outer-layer', 'no token request carried Basic credentials (see CRED-02.basic-scheme)'), notSeen('CRED-02.inner-layer', 'no token request carried Basic credentials (see CRED-02.basic-scheme)'));
  } else {
    out.push(
      verdictOf(outer) ?? held('CRED-02.outer-layer', layersSeen),
      verdictOf(inner) ?? (outer ? notSeen('CRED-02.inner-layer', 'the outer layer is not base64 (see CRED-02.outer-layer)') : held('CRED-02.inner-layer', layersSeen)),
    );
  }
  if (decoded.length === 0) {
    const cred02Failed = out.some((v) => v.status === 'fail');
    out.push(...['CRED-01.v1-literal', 'CRED-01.fields', 'CRED-04.default-domain'].map((c) => (cred02Failed
      ? skippedAfter(c, 'the Client ID cannot be read back from the credentials', ['CRED-02'])
      : notSeen(c, 'the credentials cannot be decoded (see CRED-02)'))));
    return out;
  }
  // The judges of the client suite (harness/judges): the fields are compared with the account whose password the
  // credentials carry (a wrong password names no account); its domain, only when the account declares one.
  const judged = decoded.map((d) => {
    const a = clientIdAccount(d.r);
    return { ...d, problems: cred01Problems(d.clientId, a && { epr: a.epr, pcc: a.pcc, restDomain: a.restDomainDeclared ? a.restDomain : undefined, groupAlternatives: a.groupAlternatives }) };
  });
  const firstOfCred01 = (clause: string) => judged.flatMap((d) => d.problems.filter((p) => p.clause === clause).map((p) => brokenBy(p, d.r.x)))[0];
  out.push(firstOfCred01('CRED-01.v1-literal') ?? held('CRED-01.v1-literal', `${plural(decoded.length, 'Client ID')} starting with V1`));
  const known = decoded.filter((d) => clientIdAccount(d.r) !== undefined);
  if (known.length === 0) {
    const why = t.accountsKnown ? 'the credentials carry the password of no account the harness knows' : `the expected EPR, PCC and domain are not known: ${ACCOUNT_HINT}`;
    out.push(notSeen('CRED-01.fields', why), notSeen('CRED-04.default-domain', why));
    return out;
  }
  out.push(firstOfCred01('CRED-01.fields') ?? held('CRED-01.fields', `${plural(known.length, 'Client ID')} of a known account`));
  const undeclared = known.filter((d) => !d.r.account!.restDomainDeclared);
  if (undeclared.length === 0) {
    out.push(notSeen('CRED-04.default-domain', 'every account the credentials name declares its REST domain, so the default is not exercised: declare the account without "restDomain" when the application is configured without one'));
  } else {
    const wrong = undeclared.flatMap((d) => {
      const p = cred04Problem(d.clientId);
      return p ? [brokenBy(p, d.r.x)] : [];
    })[0];
    out.push(wrong ?? held('CRED-04.default-domain', `${plural(undeclared.length, 'Client ID')} with the default domain AA`));
  }
  return out;
}

// ---- REST-01 ------------------------------------------------------------------------------------------------------

function rest01(t: Traffic): ClauseVerdict[] {
  const requests = t.tokenRequests;
  if (requests.length === 0) {
    const none = 'no token request seen: start the application with no token held and let it make a REST call';
    return ['REST-01.method-path', 'REST-01.content-type', 'REST-01.grant-type'].map((c) => notSeen(c, none));
  }
  const seen = `${plural(requests.length, 'token request')}`;
  // The judge of the client suite (harness/judges), on every token request; where {base_url} ends, a recording does
  // not say: any path ending in /v2/auth/token passes.
  const problems = requests.flatMap((r) => rest01Problems(r.x.request).map((p) => brokenBy(p, r.x)));
  return ['REST-01.method-path', 'REST-01.content-type', 'REST-01.grant-type'].map((c) => problems.find((v) => v.clause === c) ?? held(c, seen));
}

// ---- API-03..05 ---------------------------------------------------------------------------------------------------

function api03(t: Traffic): ClauseVerdict[] {
  const calls = t.apiCalls;
  if (calls.length === 0) {
    const none = 'no REST API call seen: let the application call a published REST API';
    return ['API-03.bearer-scheme', 'API-03.upper-case-method', 'API-03.environment-base-url'].map((c) => notSeen(c, none));
  }
  const seen = `${plural(calls.length, 'API call')}`;
  // The judge of the client suite (harness/judges), on every call.
  const problems = calls.flatMap((c) => api03Problems({ method: c.x.request.method, path: c.x.request.path, authorization: c.authorization }).map((p) => brokenBy(p, c.x)));
  const unknownEnv = calls.filter((c) => c.x.env === undefined);
  return [
    problems.find((v) => v.clause === 'API-03.bearer-scheme') ?? held('API-03.bearer-scheme', seen),
    problems.find((v) => v.clause === 'API-03.upper-case-method') ?? held('API-03.upper-case-method', seen),
    // Which environment's token a call carries is ENV-02's to judge (one deviation, one rule); here: the call went to
    // the REST base URL of an environment.
    unknownEnv.length === calls.length
      ? notSeen('API-03.environment-base-url', 'the calls went to hosts no declared environment has: give --target <config.json> with the environments\' URLs')
      : held('API-03.environment-base-url', `${plural(calls.length - unknownEnv.length, 'API call')} to an environment's REST base URL (the token's environment: see ENV-02)`),
  ];
}

/** REST tokens by environment and credentials, in the order they were issued. */
function restTokensByClient(t: Traffic): Map<string, IssuedToken[]> {
  const by = new Map<string, IssuedToken[]>();
  for (const r of t.tokenRequests) {
    if (!r.token) continue;
    const key = clientKey(r);
    const list = by.get(key);
    if (list) list.push(t.issued.get(r.token)!);
    else by.set(key, [t.issued.get(r.token)!]);
  }
  return by;
}

/** A token of the client as API-04 reads it: when it stopped being usable (refused, or made to expire), its uses. */
function heldToken(t: Traffic, token: IssuedToken): HeldToken {
  const uses = t.usesByToken.get(token.value) ?? [];
  const refused = uses.filter((u) => u.rejected).map((u) => u.x.endedAt);
  const expired = t.ctx.expired.get(token.value);
  const ended = Math.min(...refused, ...(expired !== undefined ? [expired] : []));
  return { obtainedAt: `#${token.seq}`, issuedAt: token.issuedAt, expiresIn: token.expiresIn, endedAt: Number.isFinite(ended) ? ended : undefined, uses: uses.length };
}

/**
 * The newest token (the last of `tokens`, in the order they were requested) issued by `time`, other than that of the
 * exchange `seq`: a binary search over the running minimum of the issue times from the end (the tokens are requested
 * in order, but answers may come back out of order).
 */
function newestIssued(tokens: readonly IssuedToken[], suffixMin: readonly number[], time: number, seq: number): IssuedToken | undefined {
  // suffixMin is non-decreasing: the tokens i with suffixMin[i] <= time are a prefix, whose last one was issued by `time`.
  let lo = 0;
  let hi = suffixMin.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((suffixMin[mid] as number) <= time) lo = mid + 1;
    else hi = mid;
  }
  let i = lo - 1;
  while (i >= 0) {
    const tok = tokens[i] as IssuedToken;
    if (tok.issuedAt <= time && tok.seq !== seq) return tok;
    i--;
  }
  return undefined;
}

function api04(t: Traffic): ClauseVerdict {
  const byClient = restTokensByClient(t);
  for (const [key, tokens] of byClient) {
    const requests = t.tokenRequestsByClient.get(key) ?? [];
    const suffixMin: number[] = new Array<number>(tokens.length);
    for (let i = tokens.length - 1, min = Infinity; i >= 0; i--) suffixMin[i] = min = Math.min(min, (tokens[i] as IssuedToken).issuedAt);
    for (const r of requests) {
      // The newest token this client held when it started the request; a request started before any was received is API-05's.
      // (When the client sent it: a request of a burst of concurrent first calls may be read after the first answer.)
      const current = newestIssued(tokens, suffixMin, sentFrom(r.x), r.x.seq);
      // The judge the client suite uses too (harness/judges), on the request's start (the token must still be usable then).
      const p = api04Problem({ at: at(r.x), sentAt: r.x.startedAt, held: current && heldToken(t, current) });
      if (p) return brokenBy(p, r.x);
    }
  }
  const restUses = t.uses.filter((u) => u.x.protocol === 'rest');
  if (restUses.length < 2) return notSeen('API-04.reuse', 'fewer than two REST API calls seen: token reuse shows over several calls');
  return held('API-04.reuse', `${plural(restUses.length, 'API call')} with ${plural(t.tokenRequests.filter((r) => r.token).length, 'token')}`);
}

function api05(t: Traffic): ClauseVerdict {
  // The requests of a client are in the order they started: those in flight while `a` was are the ones after it that
  // started before it ended, the first of which is the next one.
  const place = new Map<TokenRequest, { readonly list: readonly TokenRequest[]; readonly i: number }>();
  for (const list of t.tokenRequestsByClient.values()) list.forEach((r, i) => place.set(r, { list, i }));
  for (const a of t.tokenRequests) {
    const { list, i } = place.get(a)!;
    const overlapping: TokenRequest[] = [];
    for (let j = i + 1; j < list.length && (list[j] as TokenRequest).x.startedAt < a.x.endedAt; j++) overlapping.push(list[j] as TokenRequest);
    const p = api05Problem(overlapping.length + 1, 'in flight at once');
    if (p) return brokenBy(p, [a.x, ...overlapping.map((o) => o.x)]);
  }
  // Concurrent first calls show as API calls in flight at once with the first token of a client.
  // The calls are in the order they started: a call in flight at once with an earlier one is in flight with the one before it.
  for (const tokens of restTokensByClient(t).values()) {
    const first = tokens[0];
    const calls = (first && t.usesByToken.get(first.value)?.filter((u) => u.x.protocol === 'rest').map((u) => u.x)) ?? [];
    if (calls.some((c, i) => i + 1 < calls.length && (calls[i + 1] as ObservedExchange).startedAt < c.endedAt)) {
      return held('API-05.single-flight', 'concurrent first calls shared one token request');
    }
  }
  return notSeen('API-05.single-flight', 'no concurrent first calls seen: start the workload with several REST calls at once while the application holds no token');
}

// ---- LIFE-03, SESS-07: refused tokens are not sent again ----------------------------------------------------------

interface Refusal {
  readonly token: string;
  readonly kind: 'sessionless' | 'session';
  /** The first refused use. */
  readonly first: ObservedExchange;
  readonly expired: boolean;
  /** Uses of the token that count as resends (see {@link resends}). */
  readonly resent: readonly ObservedExchange[];
  /**
   * Uses of the token that started after the refusal had been answered, resends or not, less as many as there were
   * calls in flight at the refusal (each may have held back one call that read the token before it).
   */
  readonly later: readonly ObservedExchange[];
  /** Calls of the environment in flight when the refusal was answered (a concurrent client's; 0 for a sequential one). */
  readonly inFlight: number;
  /** The client obtained another token (or used one) in that environment afterwards. */
  readonly wentOn: boolean;
}

/**
 * The requests that sent a refused token again. A use of the token that started after the refusal was answered is a
 * resend, unless the traffic shows calls that were in flight when the refusal came (or the client's calls overlap
 * elsewhere, see {@link concurrent}): a thread of a concurrent client
 * may have read its token before the refusal, and its call reach the service after it (delayed on a loaded machine),
 * and so may the two or three other calls of a small thread pool. A sequential client has no call in flight: every
 * later use is a resend. With calls in flight, only what no conforming client does counts, whatever the timing:
 * - the client obtained a new token after the refusal, used it, and after that use had been answered sent the
 *   refused one again, {@link RESEND_AFTER_MOVING_ON} times in a row (each send started after the previous one was
 *   answered);
 * - or it sent the refused token in a chain of {@link RESEND_CHAIN} requests, each started after the previous one
 *   (the refusal first) had been answered: more than the leftovers of a handful of concurrent calls.
 * Later uses short of these thresholds leave the clause undecided (`partial`), never `pass`.
 */
export const RESEND_CHAIN = 3;
export const RESEND_AFTER_MOVING_ON = 2;

/** The first item of `list` (ordered by `time`) at or after `from` that `is`. */
function firstAfter<T>(list: readonly T[], from: number, time: (item: T) => number, is: (item: T) => boolean): T | undefined {
  for (let i = firstFrom(list, from, time); i < list.length; i++) if (is(list[i] as T)) return list[i];
  return undefined;
}

/**
 * Whether `x` was surely sent after `first` was answered. The observing proxy knows the earliest a request can have
 * been sent (`earliestSend`: when its connection was free again), and a request on a connection freed by the answer
 * was sent after it (ties included). A HAR file has the start only, to the millisecond: a start in the same
 * millisecond as the answer may be a call that was in flight.
 */
export function sentAfterAnswer(x: ObservedExchange, first: Pick<ObservedExchange, 'endedAt'>): boolean {
  return x.earliestSend !== undefined ? x.earliestSend >= first.endedAt : x.startedAt > first.endedAt;
}

/** How far back {@link inFlightAt} looks: more calls in flight at once than a client's pool would hold. */
export const IN_FLIGHT_LOOKBACK = 64;

/**
 * Calls of `first`'s environment (any token) in flight when its answer came: not surely sent after it (see
 * {@link sentAfterAnswer}), and answered no earlier. Looks back
 * {@link IN_FLIGHT_LOOKBACK} calls at most, so that a long recording is read a bounded number of times per refusal.
 */
function inFlightAt(t: Traffic, first: ObservedExchange): number {
  const uses = t.usesIn.get(first.env) ?? [];
  let end = firstFrom(uses, first.endedAt, (u) => u.x.startedAt);
  while (end < uses.length && (uses[end] as TokenUse).x.startedAt === first.endedAt) end++;
  let n = 0;
  for (let i = end - 1; i >= 0 && i >= end - IN_FLIGHT_LOOKBACK; i--) {
    const x = (uses[i] as TokenUse).x;
    if (x !== first && x.endedAt >= first.endedAt && !sentAfterAnswer(x, first)) n++;
  }
  return n;
}

/**
 * Whether the client's calls ever overlapped (one started before another was answered): a concurrent client. A
 * recorded clock has a granularity (a HAR's is a millisecond): a call in flight at a refusal can look like one sent
 * just after it, and only a client that never had two calls in flight at once is surely sequential.
 */
function concurrent(t: Traffic): boolean {
  let lastEnd = -Infinity;
  for (const u of t.uses) {
    if (u.x.startedAt < lastEnd) return true;
    lastEnd = Math.max(lastEnd, u.x.endedAt);
  }
  return false;
}

function resends(t: Traffic, later: readonly ObservedExchange[], token: string, first: ObservedExchange, renewal: ObservedExchange | undefined, concurrent: boolean): ObservedExchange[] {
  // A sequential client had nothing in flight: every use after the refusal was answered is a resend.
  if (!concurrent) return [...later];
  // Each call in flight at the refusal may hold back one call that read the token before it (queued on its
  // connection): that many later uses are explained. What is left is judged by the thresholds below.
  if (later.length === 0) return [];
  const chainFrom = (from: number): ObservedExchange[] => {
    const chain: ObservedExchange[] = [];
    let known = from;
    for (const x of later) {
      if (sentFrom(x) < known) continue;
      chain.push(x);
      known = x.endedAt;
    }
    return chain;
  };
  const movedOn = renewal && firstAfter(t.usesIn.get(first.env) ?? [], renewal.endedAt, (u) => u.x.startedAt, (u) => u.token !== token);
  const afterMovingOn = movedOn ? chainFrom(movedOn.x.endedAt) : [];
  if (afterMovingOn.length >= RESEND_AFTER_MOVING_ON) return afterMovingOn;
  const chain = chainFrom(first.endedAt);
  return chain.length >= RESEND_CHAIN ? chain : [];
}

function refusals(t: Traffic): Refusal[] {
  const out: Refusal[] = [];
  let overlapping: boolean | undefined;
  const done = new Set<string>();
  for (const use of t.uses) {
    if (!use.refused || done.has(use.token)) continue;
    done.add(use.token);
    const token = t.issued.get(use.token);
    const kind = token?.kind ?? (use.x.protocol === 'rest' ? 'sessionless' : 'session');
    const expiredAt = t.ctx.expired.get(use.token);
    const lifetimeEnd = token?.expiresIn !== undefined ? token.issuedAt + token.expiresIn * 1000 : Infinity;
    // Among the exchanges of its environment that started once the refusal was answered: the first that obtained a
    // token, and whether any obtained one or used another token.
    const after = use.x.endedAt;
    const startOf = (x: ObservedExchange) => x.startedAt;
    const renewal = firstAfter(t.obtainingIn.get(use.x.env) ?? [], after, startOf, () => true);
    const wentOn = firstAfter(t.tokenExchangesIn.get(use.x.env) ?? [], after, startOf, (x) => t.obtaining.has(x) || t.useOf.get(x)?.token !== use.token);
    const later = (t.usesByToken.get(use.token) ?? []).filter((u) => u.x !== use.x && sentAfterAnswer(u.x, use.x)).map((u) => u.x);
    // Only later uses need deciding: the calls in flight are looked for then (bounded reads per refusal).
    const inFlight = later.length > 0 ? inFlightAt(t, use.x) : 0;
    const isConcurrent = inFlight > 0 || (later.length > 0 && (overlapping ??= concurrent(t)));
    out.push({
      token: use.token, kind, first: use.x,
      expired: (expiredAt !== undefined && expiredAt <= use.x.endedAt) || lifetimeEnd <= use.x.startedAt,
      resent: resends(t, later, use.token, use.x, renewal, isConcurrent),
      // Later uses no call in flight explains: what is left undecided when the thresholds are not reached.
      later: isConcurrent ? later.slice(inFlight) : later,
      inFlight,
      wentOn: wentOn !== undefined,
    });
  }
  return out;
}

/** Why later uses of a refused token were not counted as resends (calls were in flight), in words. */
export function shortOfThreshold(r: Pick<Refusal, 'first' | 'inFlight'> & { readonly later: { readonly length: number } }): string {
  // Either reason, in words that hold: calls in flight at the refusal, or (none then) the client's calls overlapping elsewhere.
  const why = r.inFlight > 0 ? `with ${plural(r.inFlight, 'call')} in flight when it came` : 'with no call in flight when it came, but the client\'s calls overlapping elsewhere in the traffic';
  return `${plural(r.later.length, 'more use')} of the refused token after the refusal at ${at(r.first)}, ${why} `
    + `(a concurrent client's calls may have read the token before the refusal): short of a chain of ${RESEND_CHAIN}, or ${RESEND_AFTER_MOVING_ON} after the client moved on to a new token`;
}

function life03(t: Traffic): ClauseVerdict[] {
  const sessionless = refusals(t).filter((r) => r.kind === 'sessionless');
  const judge = (clause: Life03Clause, list: Refusal[], none: string): ClauseVerdict => {
    // The judge the client suite uses too (harness/judges); what the client was asked to do, traffic does not show.
    const p = life03Problem(clause, list.map((r) => ({ first: at(r.first), resent: r.resent.map(at) })));
    const resent = list.find((r) => r.resent.length > 0);
    if (p) return brokenBy(p, resent && [resent.first, ...resent.resent]);
    const short = list.find((r) => r.later.length > 0);
    if (short) return undecided(clause, shortOfThreshold(short));
    const wentOn = list.filter((r) => r.wentOn);
    if (wentOn.length === 0) return notSeen(clause, list.length === 0 ? none : 'the traffic ends after the refusal: whether the client obtains a new token is not seen');
    return held(clause, `${plural(wentOn.length, 'refused token')} replaced by a new one and never sent again`);
  };
  return [
    judge('LIFE-03.after-expiry', sessionless.filter((r) => r.expired), hint(t,
      'no expired token seen: use `--inject expire-tokens-after=<s>` so that the application\'s tokens expire during the workload',
      'no expired token seen: record a workload that runs past a token\'s lifetime (or observe it against the simulator with `--inject expire-tokens-after=<s>`)')),
    judge('LIFE-03.after-refusal', sessionless.filter((r) => !r.expired), hint(t,
      'no refused token seen: use `--inject unauthorized-once` so that the service refuses the application\'s token once',
      'no refused token seen: observe the application against the simulator with `--inject unauthorized-once`')),
  ];
}

function sess07(t: Traffic): ClauseVerdict {
  const list = refusals(t).filter((r) => r.kind === 'session');
  // The judge of the client suite (harness/judges), on each refused session token; which requests resent it after the
  // refusal, the traffic shows by the token they carry (see `resends`).
  for (const r of list) {
    const p = sess07Problem(r.resent.map((x) => t.soap.find((m) => m.x === x)?.action ?? x.request.path));
    if (p) return brokenBy(p, [r.first, ...r.resent]);
  }
  const short = list.find((r) => r.later.length > 0);
  if (short) return undecided('SESS-07.no-reuse', shortOfThreshold(short));
  if (list.length === 0) {
    return notSeen('SESS-07.no-reuse', hint(t, 'no Client.InvalidSecurityToken seen for a session token: use `--inject close-sessions` so that the service drops the application\'s sessions',
      'no Client.InvalidSecurityToken seen for a session token: observe the application against the simulator with `--inject close-sessions`'));
  }
  return held('SESS-07.no-reuse', `${plural(list.length, 'refused session token')}, none sent again`);
}

// ---- SOAP ---------------------------------------------------------------------------------------------------------

/** A SOAP request as the judges read it: the text sent and its envelope. */
const sentOf = (m: SoapMessage) => ({ body: m.x.request.body, envelope: m.request, ...(m.requestError !== undefined && { error: m.requestError }) });

async function soap01(t: Traffic, validate: RequestValidator | undefined): Promise<ClauseVerdict[]> {
  const sent = t.soap;
  if (sent.length === 0) {
    const none = 'no SOAP request seen: let the application make a SOAP call';
    return ['SOAP-01.message-header', 'SOAP-01.security-header', 'SOAP-01.schema'].map((c) => notSeen(c, none));
  }
  // The judges of the client suite (harness/judges), on every request.
  let headerFail: ClauseVerdict | undefined;
  let securityFail: ClauseVerdict | undefined;
  for (const m of sent) {
    for (const p of soap01HeaderProblems(sentOf(m))) {
      if (p.clause === 'SOAP-01.message-header') headerFail ??= brokenBy(p, m.x);
      else securityFail ??= brokenBy(p, m.x);
    }
  }
  const seen = `${plural(sent.length, 'SOAP request')}`;
  let schema: ClauseVerdict;
  if (!validate) {
    schema = notSeen('SOAP-01.schema', 'no schema validator could start (neither libxml2-wasm in this process nor a JDK 17 for the JVM helper)');
  } else {
    schema = held('SOAP-01.schema', seen);
    for await (const [m, verdict] of pipelined(sent, VALIDATIONS_IN_FLIGHT, (m) => soap01SchemaVerdict(m.x.request.body, m.action, validate))) {
      const p = soap01SchemaProblem(verdict, m.action);
      if (p) {
        schema = brokenBy(p, m.x);
        break;
      }
    }
  }
  return [headerFail ?? held('SOAP-01.message-header', seen), securityFail ?? held('SOAP-01.security-header', seen), schema];
}

function soap03(t: Traffic): ClauseVerdict[] {
  const creating = t.soap.filter((m) => m.request && TOKEN_CREATING.has(m.action ?? ''));
  if (creating.length === 0) {
    const none = 'no TokenCreateRQ or SessionCreateRQ seen: let the application obtain a SOAP token or open a session';
    return [notSeen('SOAP-03.username-token', none), notSeen('SOAP-03.manifest', none)];
  }
  const seen = `${plural(creating.length, 'token-creating request')}`;
  // The judges of the client suite (harness/judges); the account is the one whose password the UsernameToken carries.
  const tokenFail = creating.map((m) => {
    const p = soap03UsernameTokenProblem(m.request!, m.account);
    return p && brokenBy(p, m.x);
  });
  const manifestFail = creating.map((m) => {
    const p = soap03ManifestProblem(m.request!);
    return p && brokenBy(p, m.x);
  });
  const identity = creating.some((m) => m.account) ? ' (Username and Organization compared with the account)' : '';
  return [firstFailure('SOAP-03.username-token', tokenFail, `${seen}${identity}`), firstFailure('SOAP-03.manifest', manifestFail, seen)];
}

function soap04(t: Traffic): ClauseVerdict[] {
  const later = t.soap.filter((m) => m.request && !TOKEN_CREATING.has(m.action ?? ''));
  if (later.length === 0) {
    const none = 'no SOAP call after token creation seen: let the application call a SOAP API with its token';
    return [notSeen('SOAP-04.binary-security-token', none), notSeen('SOAP-04.action-code', none)];
  }
  const seen = `${plural(later.length, 'SOAP call')}`;
  // The judges of the client suite (harness/judges). Which tokens the service issued and which actions the
  // application meant to call, the traffic does not show (a token may predate it): the judges go without.
  const bstFail = later.map((m) => {
    const p = soap04TokenProblem(m.request!);
    return p && brokenBy(p, m.x);
  });
  const action = soap04ActionProblem(later.map((m) => m.request!));
  const actionFail = action && brokenBy(action.problem, action.call === undefined ? undefined : later[action.call]!.x);
  return [firstFailure('SOAP-04.binary-security-token', bstFail, seen), actionFail ?? held('SOAP-04.action-code', seen)];
}

/** The account whose PCC (or declared iPCC) a SOAP request must carry in eb:CPAId: that of its credentials or token. */
function expectedPcc(t: Traffic, m: SoapMessage): KnownAccount | undefined {
  return TOKEN_CREATING.has(m.action ?? '') ? m.account : t.accountOfToken(m.tokenUsed, m.x.env);
}

/**
 * SOAP-05.conversation-id of a session whose requests carry `ids` ConversationIds (more than one), the session opened
 * at `at`: unchecked, not failed (latitude conversation-per-workflow). The batch judge and the running judge say it alike.
 */
export function conversationsUnchecked(at: string, ids: number): ClauseVerdict {
  return notSeen('SOAP-05.conversation-id', `the session opened at ${at} carries ${ids} ConversationIds: traffic does not show whether one workflow changed its ID or the session served several workflows one after the other (latitude conversation-per-workflow); a driven run (run --suite client) checks this clause`);
}

function soap05(t: Traffic): ClauseVerdict[] {
  const sent = t.soap.filter((m) => m.request);
  let cpaid: ClauseVerdict;
  if (sent.length === 0) cpaid = notSeen('SOAP-05.cpaid', 'no SOAP request seen: let the application make a SOAP call');
  else {
    const judged = sent.flatMap((m) => {
      const caller = expectedPcc(t, m);
      return caller === undefined ? [] : [{ m, caller }];
    });
    // The judge of the client suite (harness/judges), on every request whose caller is known.
    const wrong = judged.map(({ m, caller }) => {
      const p = soap05CpaIdProblem(m.request!, caller.pcc, caller.groupAlternatives);
      return p && brokenBy(p, m.x);
    }).find((v) => v !== undefined);
    cpaid = wrong
      ?? (judged.length > 0 ? held('SOAP-05.cpaid', `${plural(judged.length, 'SOAP request')} with the account's PCC`)
      : notSeen('SOAP-05.cpaid', t.accountsKnown ? 'the SOAP requests carry credentials or tokens of no account the harness knows' : `the caller's PCC is not known: ${ACCOUNT_HINT}`));
  }
  // "One workflow keeps one ConversationId": traffic does not show where a traveler workflow starts and ends, and a
  // session may serve several, one after the other (latitude conversation-per-workflow). A session whose requests
  // all carry one ConversationId shows every workflow in it kept its own; one that carries several is no evidence
  // either way (a workflow that changed its ID, or the next workflow): the clause is left unchecked, never failed.
  // A driven client is asked for its workflows, and its check decides (suites/client/soap.test.ts).
  const sessions = t.soap.filter((m) => m.action === 'SessionCreateRQ' && m.tokenIssued);
  let judgedSessions = 0;
  let several: { readonly at: string; readonly ids: number } | undefined;
  for (const create of sessions) {
    const inSession = t.soapByToken.get(create.tokenIssued!) ?? [];
    if (inSession.length === 0) continue;
    judgedSessions++;
    const requests = [create, ...inSession].map((m) => m.request!);
    if (several === undefined && soap05ConversationProblem(requests)) {
      several = { at: `#${create.x.seq}`, ids: new Set(requests.map((r) => r.messageHeader?.conversationId)).size };
    }
  }
  const conversation = several
    ? conversationsUnchecked(several.at, several.ids)
    : judgedSessions > 0
      ? held('SOAP-05.conversation-id', `${plural(judgedSessions, 'session')}, each with one ConversationId`)
      : notSeen('SOAP-05.conversation-id', 'no session with a call in it seen: let the application open a session and call an API in it');
  return [cpaid, conversation];
}

// ---- SESS-05, -06, -08 --------------------------------------------------------------------------------------------

/** A SessionCloseRQ, by its eb:Action or its body (a wrong action is SOAP-04's to judge: the close was still sent). */
export const isClose = (m: SoapMessage): boolean => m.action === 'SessionCloseRQ' || m.request?.body.root?.localName === 'SessionCloseRQ';

/**
 * A call inside a session that failed (SESS-06.after-failure): answered with anything but a success, a refusal of the
 * token as invalid (the session is over: nothing to close) or a throttle or gateway's error (the transport's: the
 * client may wait and send it again).
 */
export const callFailed = (m: SoapMessage, codes: FaultCodes): boolean => !isClose(m) && m.answer !== undefined && m.answer.kind !== 'success'
  && !(m.answer.kind === 'refused' && m.answer.why === 'invalid-token') && !(m.x.response !== undefined && transportAnswer(m.x.request, m.x.response, codes));
const closes = (t: Traffic) => t.soap.filter(isClose);

function sess05(t: Traffic): ClauseVerdict[] {
  const list = closes(t).filter((m) => m.request);
  if (list.length === 0) {
    const none = 'no SessionCloseRQ seen: let the application open a session and close it';
    return [notSeen('SESS-05.header', none), notSeen('SESS-05.body', none)];
  }
  const seen = `${plural(list.length, 'SessionCloseRQ')}`;
  // The judges of the client suite (harness/judges); which token is a session's, the traffic shows by what it opened.
  const headerFail = list.map((m) => {
    const issued = m.tokenUsed ? t.issued.get(m.tokenUsed) : undefined;
    const p = sess05HeaderProblem(m.request!, { is: issued === undefined ? undefined : issued.kind === 'session', ...(issued && { carried: `a ${issued.kind} token` }) });
    return p && brokenBy(p, m.x);
  });
  const bodyFail = list.map((m) => {
    const p = sess05BodyProblem(m.request!);
    return p && brokenBy(p, m.x);
  });
  return [firstFailure('SESS-05.header', headerFail, seen), firstFailure('SESS-05.body', bodyFail, seen)];
}

/**
 * Until when a session never closed nor ended (SESS-06's matter) held its pool slot on the service: to the end of the
 * observation, unless its inactivity timeout (the documented default, 15 minutes, from its last request) came first.
 * The batch judge and the running judge count it alike.
 */
export function heldUntil(lastRequestAt: number, observedUntil: number): number {
  return Math.min(observedUntil, lastRequestAt + limits.defaultSessionTimeoutSeconds * 1000);
}

/**
 * SESS-08.pool-bound when the sessions closed or ended stay within the pool but, with those never closed counted until
 * the end of the observation, `peak` would be open at once: not a pass (the evidence is there), not a fail (the
 * client may have forgotten them, which is SESS-06's deviation: one fault, one rule). Both judges say it alike.
 */
export function poolBoundWithOpenSessions(peak: number, pool: number): ClauseVerdict {
  return notSeen('SESS-08.pool-bound', `with the sessions never closed in the observation counted until its end, ${peak} would be open at once with a pool of ${pool}: whether the client still held them, or forgot them (SESS-06's matter), traffic does not show`);
}

interface SessionLife {
  readonly token: IssuedToken;
  /** When SessionCloseRQ with its token was sent. */
  readonly closedAt: number | undefined;
  /** When the service ended it (refused it, or the observer made it expire). */
  readonly endedAt: number | undefined;
  /** A call inside it that failed (a fault other than the refusal of the token, or no answer). */
  readonly failedCall: SoapMessage | undefined;
  /** When its latest request started (it held a slot until then at least). */
  readonly lastCallAt: number | undefined;
}

function sessions(t: Traffic): SessionLife[] {
  return [...t.issued.values()].filter((tok) => tok.kind === 'session').map((token) => {
    const inSession = t.soapByToken.get(token.value) ?? [];
    const close = inSession.find(isClose);
    // Refused in whatever form it was sent: the client learnt the session is gone (and may not send its token again).
    const refused = t.usesByToken.get(token.value)?.find((u) => u.rejected);
    const expired = t.ctx.expired.get(token.value);
    const failedCall = inSession.find((m) => callFailed(m, t.ctx.faultCodes)) ?? inSession.find((m) => !isClose(m) && !m.x.response);
    const ends = [refused?.x.endedAt, expired].filter((n): n is number => n !== undefined);
    const lastCallAt = inSession.length > 0 ? Math.max(...inSession.map((m) => m.x.startedAt)) : undefined;
    return { token, closedAt: close?.x.startedAt, endedAt: ends.length ? Math.min(...ends) : undefined, failedCall, lastCallAt };
  });
}

function sess06(t: Traffic): ClauseVerdict[] {
  const all = sessions(t);
  if (all.length === 0) {
    const none = 'no session seen: let the application open a session (SessionCreateRQ)';
    return ['SESS-06.end-of-work', 'SESS-06.shutdown', 'SESS-06.after-failure'].map((c) => notSeen(c, none));
  }
  const isOpen = (s: SessionLife) => s.closedAt === undefined && s.endedAt === undefined;
  const open = all.filter(isOpen);
  const whole = t.ctx.wholeRun;
  const notWhole = `${plural(open.length, 'session')} of ${all.length} still open when the observation ended, which did not cover the application's exit: let observe run the application (\`observe … -- <command>\`) or say --whole-run`;
  const failed = all.filter((s) => s.failedCall);
  // The judge of the client suite (harness/judges); a session still open is never closed only when the observation
  // covered the application's exit.
  const seen = all.map((s) => ({ closed: s.closedAt !== undefined, ended: s.endedAt !== undefined, failedCall: s.failedCall !== undefined }));
  const openXs = (list: SessionLife[]) => list.map((s) => t.bySeq.get(s.token.seq)!).filter(Boolean);
  const endOfWorkProblem = sess06Problem('SESS-06.end-of-work', seen);
  const endOfWork = !endOfWorkProblem
    ? held('SESS-06.end-of-work', `${plural(all.length, 'session')}, each closed (or ended by the service)`)
    : whole ? brokenBy(endOfWorkProblem, openXs(open))
    : notSeen('SESS-06.end-of-work', notWhole);
  const shutdownProblem = sess06Problem('SESS-06.shutdown', seen);
  const shutdown = !whole
    ? notSeen('SESS-06.shutdown', open.length > 0 ? notWhole : 'the observation did not cover the application\'s exit: let observe run the application (`observe … -- <command>`) or say --whole-run')
    : !shutdownProblem ? held('SESS-06.shutdown', 'every session closed by the time the application exited')
    : brokenBy(shutdownProblem, openXs(open));
  const afterFailureProblem = sess06Problem('SESS-06.after-failure', seen);
  const afterFailure = failed.length === 0
    ? notSeen('SESS-06.after-failure', 'no call inside a session failed: call an API in a session that the account may not use, or one the service faults')
    : !afterFailureProblem ? held('SESS-06.after-failure', `${plural(failed.length, 'session')} with a failed call, each closed`)
    : whole ? brokenBy(afterFailureProblem, failed.filter(isOpen).map((s) => s.failedCall!.x))
    : notSeen('SESS-06.after-failure', notWhole);
  return [endOfWork, shutdown, afterFailure];
}

function sess08(t: Traffic): ClauseVerdict[] {
  const all = sessions(t);
  let bound: ClauseVerdict;
  const pools = (env: Environment | undefined, account: IssuedToken['account']) => t.ctx.sessionPoolSize ?? account?.poolSize ?? (env ? t.ctx.accounts[env]?.[0]?.poolSize : undefined);
  if (all.length === 0) bound = notSeen('SESS-08.pool-bound', 'no session seen: let the application open sessions');
  else {
    // The sessions of each environment and account, judged by the judge of the client suite (harness/judges).
    // A session never closed is SESS-06's deviation: it is judged apart (`open`), so that one fault fails one rule.
    const groups = new Map<string, { pool: number | undefined; spans: SessionSpan[]; open: SessionSpan[] }>();
    const until = Math.max(...t.exchanges.map((x) => x.startedAt));
    for (const s of all) {
      const key = `${s.token.env}|${s.token.account?.epr ?? '?'}`;
      const g = groups.get(key) ?? { pool: pools(s.token.env, s.token.account), spans: [], open: [] };
      if (s.closedAt === undefined && s.endedAt === undefined) g.open.push({ opened: s.token.issuedAt, ended: heldUntil(s.lastCallAt ?? s.token.issuedAt, until) });
      else g.spans.push({ opened: s.token.issuedAt, ended: Math.min(s.closedAt ?? Infinity, s.endedAt ?? Infinity) });
      groups.set(key, g);
    }
    bound = notSeen('SESS-08.pool-bound', 'the session pool is not known: declare it with --pool-size <n> (or "sessionPoolSize" in the target config)');
    for (const [key, g] of groups) {
      if (g.pool === undefined) continue;
      const p = sess08PoolProblem(g.pool, g.spans, key.split('|')[0]?.toUpperCase());
      if (p) {
        bound = brokenBy(p);
        break;
      }
      const withOpen = peakOpen([...g.spans, ...g.open]);
      if (withOpen > g.pool) {
        bound = poolBoundWithOpenSessions(withOpen, g.pool);
        break;
      }
      bound = held('SESS-08.pool-bound', `at most ${peakOpen(g.spans)} session(s) open at once, pool ${g.pool}`);
    }
  }
  const poolFull = t.soap.filter((m) => m.action === 'SessionCreateRQ' && m.answer?.kind === 'pool-full');
  let storm: ClauseVerdict;
  if (poolFull.length === 0) {
    storm = notSeen('SESS-08.no-retry-storm', hint(t, 'no pool-full refusal seen: use `--inject pool-full` so that the application meets a full session pool',
      'no pool-full refusal seen: observe the application against the simulator with `--inject pool-full`'));
  } else {
    // A retry keeps the ConversationId of the refused attempt. A storm: more than one retry in a row, each sent
    // without a pause (less than STORM_GAP_MS after the previous refusal). A client may try again after a back-off,
    // and an application may open sessions anew: neither is a storm.
    const byConversation = new Map<string, SoapMessage[]>();
    for (const m of poolFull) {
      const id = `${m.x.env}|${m.request?.messageHeader?.conversationId ?? `#${m.x.seq}`}`;
      const list = byConversation.get(id);
      if (list) list.push(m);
      else byConversation.set(id, [m]);
    }
    // The judge of the client suite (harness/judges), on the refusals of each conversation, with the pause before each.
    const attempts = [...byConversation.values()].map((list) => list.map((m, i) => ({ m, ...(i > 0 && { pauseMs: m.x.startedAt - list[i - 1]!.x.endedAt }) })));
    const stormed = attempts.flatMap((list) => {
      const p = sess08StormProblem(list);
      return p ? [brokenBy(p, stormRun(list).map((r) => r.m.x))] : [];
    })[0];
    storm = stormed ?? held('SESS-08.no-retry-storm', `${plural(poolFull.length, 'pool-full refusal')}, answered without a retry storm`);
  }
  return [bound, storm];
}

// ---- ENV-02, ERR-06 -----------------------------------------------------------------------------------------------

function env02(t: Traffic): ClauseVerdict[] {
  const judged = t.uses.flatMap((u) => {
    const from = t.issued.get(u.token)?.env;
    return from !== undefined && u.x.env !== undefined ? [{ u, from }] : [];
  });
  // The judge of the client suite (harness/judges), on every use whose environments are known.
  const actionOf = new Map(t.soap.map((m) => [m.x, m.action]));
  for (const { u, from } of judged) {
    const action = actionOf.get(u.x);
    const problems = env02Problems({ calledEnv: u.x.env!, tokenEnv: from, what: `${at(u.x)}${action ? ` ${action}` : ''}` });
    if (problems.length > 0) return problems.map((p) => brokenBy(p, u.x));
  }
  const envs = new Set(judged.map(({ u }) => u.x.env));
  if (envs.size < 2) {
    const why = judged.length === 0
      ? 'no token use whose environment and issuing environment are both known: let the application obtain and use tokens (with --target naming the environments\' URLs for a HAR file)'
      : 'the application used tokens in one environment only: call CERT and PROD to exercise environment isolation';
    return [notSeen('ENV-02.token-from-called-environment', why), notSeen('ENV-02.no-cross-environment-token', why)];
  }
  const seen = `${plural(judged.length, 'token use')} in ${[...envs].join(' and ').toUpperCase()}, each with a token of that environment`;
  return [held('ENV-02.token-from-called-environment', seen), held('ENV-02.no-cross-environment-token', seen)];
}

function err06(t: Traffic): ClauseVerdict[] {
  const keeps = notSeen('ERR-06.keeps-error', 'what the client reports to its caller is not in its traffic: the driver-based client suite (`run --suite client`) checks it');
  const refused = t.tokenRequests.filter((r) => r.answer === 'invalid_client');
  if (refused.length === 0) {
    return [keeps, notSeen('ERR-06.no-retry-loop', 'no invalid_client seen: run the application once with a wrong password')];
  }
  // Consecutive invalid_client answers to the same credentials, with no success in between.
  let run: typeof refused = [];
  let worst: typeof refused = [];
  let last: string | undefined;
  for (const r of t.tokenRequests) {
    const key = clientKey(r);
    if (r.answer === 'invalid_client') {
      if (key === last) run.push(r);
      else run = [r];
      last = key;
      if (run.length > worst.length) worst = run;
    } else if (key === last) {
      run = [];
    }
  }
  // The judge of the client suite (harness/judges), on the longest run. Traffic holds no operation boundaries: what it
  // finds a loop is one, or an application that asked three times (three calls of its own, each trying once). Only the
  // driver suite, which knows the operation, can tell; the traffic is no evidence of a loop.
  if (!err06LoopProblem(worst.length)) return [keeps, held('ERR-06.no-retry-loop', `${plural(refused.length, 'invalid_client answer')}, at most one retry each`)];
  return [keeps, notSeen('ERR-06.no-retry-loop', `${worst.length} invalid_client answers in a row to the same credentials: traffic cannot tell a retry loop from an application that asked ${worst.length} times; the driver-based client suite (\`run --suite client\`) checks it, or run a workload of a single call with a wrong password`)];
}

/** The REST rules that need a token the client obtained over REST. */
export const NEEDS_REST_TOKEN = ['API-03', 'API-04', 'API-05', 'LIFE-03', 'ENV-02'] as const;

/**
 * A missing prerequisite is no verdict: when the client asked for REST tokens and never got one, the clauses that
 * need a token are `skipped`, naming the credential rule that failed first (or the refusal, when none failed).
 */
function prerequisites(t: Traffic, verdicts: readonly ClauseVerdict[]): ClauseVerdict[] {
  if (t.tokenRequests.length === 0 || t.tokenRequests.some((r) => r.answer === 'issued')) return [...verdicts];
  const failedFirst = (['CRED-02', 'CRED-01', 'CRED-04', 'REST-01'] as const).find((id) => verdicts.some((v) => v.status === 'fail' && v.clause.startsWith(`${id}.`)));
  const refused = t.tokenRequests.every((r) => r.answer === 'invalid_client');
  const reason = failedFirst
    ? 'no token was issued: every token request was refused'
    : `no token was issued: ${refused ? 'every token request was refused (invalid_client): check the account the application uses' : 'no token request was answered with a token'}`;
  const after: RuleId[] = failedFirst ? [failedFirst] : [];
  return verdicts.map((v) => (v.status === 'not-applicable' && (NEEDS_REST_TOKEN as readonly string[]).some((id) => v.clause.startsWith(`${id}.`))
    ? (after.length > 0 ? skippedAfter(v.clause, reason, after) : notSeen(v.clause, reason))
    : v));
}

/** Every clause of every client rule, judged from the traffic (one verdict per clause). */
export async function judgeClientRules(t: Traffic, validate?: RequestValidator): Promise<ClauseVerdict[]> {
  return prerequisites(t, [
    ...cred(t),
    ...rest01(t),
    ...api03(t),
    api04(t),
    api05(t),
    ...life03(t),
    ...(await soap01(t, validate)),
    ...soap03(t),
    ...soap04(t),
    ...soap05(t),
    ...sess05(t),
    ...sess06(t),
    sess07(t),
    ...sess08(t),
    ...env02(t),
    ...err06(t),
  ]);
}
