/**
 * The REST rules as the traffic comes (client-rules.ts reads the same from the whole traffic): API-03 on each call,
 * API-04 on each token request against the newest token the client held, API-05 on token requests in flight at once
 * and on the first token's calls, and ENV-02 on each token use. Per client: its newest tokens (at most
 * {@link TOKENS_PER_CLIENT}) and its token requests still in flight.
 */
import { api03Problems, api04Problem, api05Problem, env02Problems, plural, type HeldToken, type Problem } from '../judges/index.ts';
import type { Environment } from '../catalog/index.ts';
import { at } from './client-rules.ts';
import { keptForEvidence, sentFrom, type JudgeContext, type ObservedExchange } from './exchange.ts';
import { clientKey, type ApiCall, type IssuedToken, type TokenRequest, type TokenUse } from './exchange-facts.ts';
import type { TokenRecord } from './token-book.ts';
import { held, notSeen, type ClauseVerdict } from './verdict.ts';

type Fail = (p: Problem, xs?: ObservedExchange | readonly ObservedExchange[]) => ClauseVerdict;

/**
 * The tokens of a client API-04 looks among for the one it held when it sent a token request: the newest issued by
 * then. A request sent on a connection idle since before the client's last 16 tokens is the only one that could
 * need an older one.
 */
export const TOKENS_PER_CLIENT = 16;

interface HeldRecord {
  readonly token: IssuedToken;
  readonly record: TokenRecord;
}

interface InFlightRequest {
  readonly order: number;
  readonly x: ObservedExchange;
  overlapping: number;
  readonly shown: ObservedExchange[];
}

interface Client {
  readonly order: number;
  /** Its tokens, each issued later than the one before (a token issued no later than a newer one is never the newest held). */
  readonly tokens: HeldRecord[];
  /** Its first token's record (API-05). */
  readonly first: TokenRecord;
  /** API-04's first failure: the request, and the token it held (its facts are read at the end). */
  failure: { readonly x: ObservedExchange; readonly held: HeldRecord } | undefined;
}

export class ApiCallFold {
  readonly #ctx: JudgeContext;
  readonly #fail: Fail;
  // API-03
  #calls = 0;
  #unknownEnv = 0;
  readonly #first = new Map<string, ClauseVerdict>();
  // API-04, API-05
  readonly #clients = new Map<string, Client>();
  readonly #inFlight = new Map<string, InFlightRequest[]>();
  #tokenRequests = 0;
  #restIssued = 0;
  #restUses = 0;
  #single: InFlightRequest | undefined;
  // ENV-02
  #env02: ClauseVerdict[] | undefined;
  #envJudged = 0;
  readonly #envs = new Set<Environment | undefined>();

  constructor(ctx: JudgeContext, fail: Fail) {
    this.#ctx = ctx;
    this.#fail = fail;
  }

  /** What the fold keeps: the clients' newest tokens, and their token requests in flight. */
  get size(): number {
    let n = 0;
    for (const c of this.#clients.values()) n += c.tokens.length;
    for (const list of this.#inFlight.values()) n += list.length;
    return n;
  }

  call(c: ApiCall): void {
    this.#calls++;
    if (c.x.env === undefined) this.#unknownEnv++;
    for (const p of api03Problems({ method: c.x.request.method, path: c.x.request.path, authorization: c.authorization })) {
      if (!this.#first.has(p.clause)) this.#first.set(p.clause, this.#fail(p, c.x));
    }
  }

  #held(h: HeldRecord): HeldToken {
    const expired = this.#ctx.expired.get(h.token.value);
    const ended = Math.min(h.record.minRejectedEnd, ...(expired !== undefined ? [expired] : []));
    return { obtainedAt: `#${h.token.seq}`, issuedAt: h.token.issuedAt, expiresIn: h.token.expiresIn, endedAt: Number.isFinite(ended) ? ended : undefined, uses: h.record.uses };
  }

  /** A token request; `record`: the record of the token it obtained, if any. */
  tokenRequest(r: TokenRequest, record: TokenRecord | undefined, issued: IssuedToken | undefined): void {
    const key = clientKey(r);
    const order = this.#tokenRequests++;
    // API-05: the client's requests still in flight when this one started overlap it.
    let flying = this.#inFlight.get(key) ?? [];
    flying = flying.filter((a) => r.x.startedAt < a.x.endedAt);
    for (const a of flying) {
      a.overlapping++;
      if (a.shown.length < 2) a.shown.push(keptForEvidence(r.x));
      if (!this.#single || a.order < this.#single.order) this.#single = a;
    }
    flying.push({ order, x: keptForEvidence(r.x), overlapping: 0, shown: [] });
    this.#inFlight.set(key, flying);
    for (const [k, list] of this.#inFlight) if (list.every((a) => a.x.endedAt <= r.x.startedAt)) this.#inFlight.delete(k);
    // API-04: the newest token the client held when it sent the request (a request sent before any was received is API-05's).
    const client = this.#clients.get(key);
    if (client && !client.failure) {
      const time = sentFrom(r.x);
      let current: HeldRecord | undefined;
      for (let i = client.tokens.length - 1; i >= 0; i--) {
        const h = client.tokens[i] as HeldRecord;
        if (h.token.issuedAt <= time) {
          current = h;
          break;
        }
      }
      if (current && api04Problem({ at: at(r.x), sentAt: r.x.startedAt, held: this.#held(current) })) {
        client.failure = { x: keptForEvidence(r.x), held: current };
        current.record.pins++;
      }
    }
    if (!issued || !record) return;
    this.#restIssued++;
    const h = { token: issued, record };
    if (!client) {
      this.#clients.set(key, { order: this.#clients.size, tokens: [h], first: record, failure: undefined });
      return;
    }
    const tokens = client.tokens;
    while (tokens.length > 0 && (tokens[tokens.length - 1] as HeldRecord).token.issuedAt >= issued.issuedAt) tokens.pop();
    tokens.push(h);
    if (tokens.length > TOKENS_PER_CLIENT) tokens.shift();
  }

  /** A use of a token (the record already counts it); `issued`: how its token was issued, when known. */
  use(u: TokenUse, issued: IssuedToken | undefined, action: string | undefined): void {
    if (u.x.protocol === 'rest') this.#restUses++;
    const from = issued?.env;
    if (from === undefined || u.x.env === undefined) return;
    this.#envJudged++;
    this.#envs.add(u.x.env);
    if (this.#env02) return;
    const problems = env02Problems({ calledEnv: u.x.env, tokenEnv: from, what: `${at(u.x)}${action ? ` ${action}` : ''}` });
    if (problems.length > 0) this.#env02 = problems.map((p) => this.#fail(p, u.x));
  }

  api03(): ClauseVerdict[] {
    if (this.#calls === 0) {
      const none = 'no REST API call seen: let the application call a published REST API';
      return ['API-03.bearer-scheme', 'API-03.upper-case-method', 'API-03.environment-base-url'].map((c) => notSeen(c, none));
    }
    const seen = `${plural(this.#calls, 'API call')}`;
    return [
      this.#first.get('API-03.bearer-scheme') ?? held('API-03.bearer-scheme', seen),
      this.#first.get('API-03.upper-case-method') ?? held('API-03.upper-case-method', seen),
      this.#unknownEnv === this.#calls
        ? notSeen('API-03.environment-base-url', 'the calls went to hosts no declared environment has: give --target <config.json> with the environments\' URLs')
        : held('API-03.environment-base-url', `${plural(this.#calls - this.#unknownEnv, 'API call')} to an environment's REST base URL (the token's environment: see ENV-02)`),
    ];
  }

  api04(): ClauseVerdict {
    for (const c of this.#clients.values()) {
      if (!c.failure) continue;
      const p = api04Problem({ at: at(c.failure.x), sentAt: c.failure.x.startedAt, held: this.#held(c.failure.held) });
      if (p) return this.#fail(p, c.failure.x);
    }
    if (this.#restUses < 2) return notSeen('API-04.reuse', 'fewer than two REST API calls seen: token reuse shows over several calls');
    return held('API-04.reuse', `${plural(this.#restUses, 'API call')} with ${plural(this.#restIssued, 'token')}`);
  }

  api05(): ClauseVerdict {
    const a = this.#single;
    if (a) {
      const p = api05Problem(a.overlapping + 1, 'in flight at once');
      if (p) return this.#fail(p, [a.x, ...a.shown]);
    }
    for (const c of this.#clients.values()) {
      if (c.first.restOverlap) return held('API-05.single-flight', 'concurrent first calls shared one token request');
    }
    return notSeen('API-05.single-flight', 'no concurrent first calls seen: start the workload with several REST calls at once while the application holds no token');
  }

  env02(): ClauseVerdict[] {
    if (this.#env02) return this.#env02;
    if (this.#envs.size < 2) {
      const why = this.#envJudged === 0
        ? 'no token use whose environment and issuing environment are both known: let the application obtain and use tokens (with --target naming the environments\' URLs for a HAR file)'
        : 'the application used tokens in one environment only: call CERT and PROD to exercise environment isolation';
      return [notSeen('ENV-02.token-from-called-environment', why), notSeen('ENV-02.no-cross-environment-token', why)];
    }
    const seen = `${plural(this.#envJudged, 'token use')} in ${[...this.#envs].join(' and ').toUpperCase()}, each with a token of that environment`;
    return [held('ENV-02.token-from-called-environment', seen), held('ENV-02.no-cross-environment-token', seen)];
  }
}
