import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { ClientError, type DriverEnvironment, type Environment, type RestCallResult } from '../../../harness/clients/protocol.ts';
import { basicAuthorization, clientIdFor, encodeBase64Utf8, encodeCredentials } from '../../../harness/credentials/index.ts';
import {
  bargainFinderMaxRQBody, buildRequest, customBody, element, formatEbTimestamp, hotelAvailLLSRQBody, makeRequestHeader, NS, otaPingRQBody,
  parseEnvelope, sessionCloseRQBody, sessionCreateRQBody, tokenCreateRQBody, usernameToken, type ParsedEnvelope, type ParsedFault,
  type RequestSecurity, type SoapBody,
} from '../../../harness/soap/index.ts';
import { DEFAULT_REST_DOMAIN, DEFAULT_SOAP_DOMAIN, FORM_CONTENT_TYPE, GRANT_TYPE, limits, TOKEN_PATH, TOKEN_TYPE } from '../../../harness/catalog/index.ts';
import { applyEnvelopeFaults, FAULT_BOUNDS, type ClientFault } from './faults.ts';
import { ConsultedSet } from '../../../harness/consulted-set.ts';
import { TokenCache, type HeldToken, type TokenCachePolicy } from './token-cache.ts';

export interface TdsClientOptions {
  /** Where each environment is and the credentials issued for it. Only configured environments can be called. */
  readonly environments: Readonly<Partial<Record<Environment, DriverEnvironment>>>;
  /** The most sessions the client holds open per environment (SESS-08). */
  readonly sessionPoolSize: number;
  /** Time limit of one HTTP request, connect to last byte (default 30 s). */
  readonly requestTimeoutMs?: number;
  /** Renew a sessionless token this long before it expires by the client's clock (default 300 s, at most a tenth of its lifetime). */
  readonly renewBeforeExpirySeconds?: number;
  /** The inactivity timeout of the account's sessions (default 900 s, the documented default). */
  readonly sessionTimeoutSeconds?: number;
  /** Ping a session that has been idle this long (default two thirds of the session timeout: 10 minutes). */
  readonly keepAliveAfterMs?: number;
  /** Wait this long before the one retry of a SessionCreateRQ refused with Client.ReachedTALimit (default 250 ms: a pause, not a storm; SESS-08 holds a retry sent within 100 ms to be none). */
  readonly poolFullBackoffMs?: number;
  /** The client's clock, ms since the epoch (default `Date.now`): token expiry and envelope timestamps. */
  readonly now?: () => number;
  /**
   * The client's clock and timer together (overrides `now`): what it reads and how it waits for a back-off. The
   * default is the real one; {@link virtualClock} skips the waits (against a simulator that does not count time).
   */
  readonly clock?: ClientClock;
  /** The eb:From PartyId (default `tds-reference-client`). */
  readonly partyId?: string;
  /**
   * Deliberate deviations, for the harness's mutant clients only (`fixtures/mutants/`). Given as a {@link ConsultedSet},
   * the set is used as it is, and remembers which faults the client asked about (the adapter's `deliberateFaults`).
   */
  readonly faults?: readonly ClientFault[] | ConsultedSet<ClientFault>;
  /**
   * Choices the interface document leaves a client, other than this client's own (harness/catalog/latitudes.ts,
   * `side: 'client'`), for the harness's conforming client variants (`fixtures/client-latitudes/`).
   */
  readonly latitudes?: readonly ClientLatitude[];
}

/**
 * The client latitudes the reference client can take (harness/catalog/latitudes.ts):
 * - `token-per-environment`: a token from every configured environment as soon as it is configured;
 * - `refused-call-reported`: a REST call refused for its token is reported as answered (401), the next call gets a new token;
 * - `session-close-timing`: a session the caller closes, or in which a call failed, is kept open in a pool of the
 *   client's own, given to the next opening of a session, and closed at shutdown;
 * - `pool-full-retries`: a SessionCreateRQ refused for a full pool is retried three times, after 1, 2 and 4 back-offs;
 * - `soap-request-extras`: every SOAP request carries a tracing header block of its own namespace and eb:version "2.0",
 *   the keep-alive ping is an OTA_PingRQ of another OTA namespace without EchoData, and so is the SessionCloseRQ element;
 * - `kept-token`: the client starts with a REST token of each environment kept from an earlier run, which it sends
 *   first and drops once refused.
 */
export type ClientLatitude = 'token-per-environment' | 'refused-call-reported' | 'session-close-timing' | 'pool-full-retries' | 'soap-request-extras' | 'kept-token' | 'rest-token-for-soap';

/** How the client reads the time and waits. */
export interface ClientClock {
  /** ms since the epoch. */
  now(): number;
  /** Resolves after `ms` (of this clock). */
  sleep(ms: number): Promise<void>;
}

/**
 * A clock whose waits return at once and move it on by the time waited: the client behaves as with the real clock,
 * without spending the time (driver protocol: `configure` with `"clock": "virtual"`).
 */
export function virtualClock(): ClientClock {
  let skipped = 0;
  return {
    now: () => Date.now() + skipped,
    sleep: async (ms) => {
      skipped += Math.max(0, ms);
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
  };
}

/** The answer to a SOAP call that succeeded. */
export interface SoapResult {
  /** The response's eb:Action, e.g. `BargainFinderMaxRS`. */
  readonly action: string;
  readonly envelope: ParsedEnvelope;
}

/** What {@link TdsClient.close} did. */
export interface CloseSummary {
  readonly sessionsClosed: number;
  /** Sessions whose SessionCloseRQ failed (they are forgotten all the same). */
  readonly failures: readonly ClientError[];
}

/** The service's fault for a token it does not know, that expired or whose session was closed (ERR-04). */
export const INVALID_SECURITY_TOKEN = 'Client.InvalidSecurityToken';
/** The service's fault for a full session pool (publicly seen; SESS-04). */
export const REACHED_TA_LIMIT = 'Client.ReachedTALimit';
/** The code of the error for a session the client's own pool has no room for (SESS-08). */
export const POOL_FULL = 'pool-full';

/** Faults that refuse credentials or a token: reported with kind `auth`; every other fault is `protocol`. */
const AUTH_FAULTS: ReadonlySet<string> = new Set([
  INVALID_SECURITY_TOKEN, 'Client.AuthenticationFailed', 'Client.UserNameNodeNotFound', 'Client.PasswordNodeNotFound',
  'Client.OrganizationNodeNotFound', 'Client.NotAuthorized',
]);

interface Session {
  /** Changes when a session kept in the client's pool is given out again (latitude `session-close-timing`). */
  handle: string;
  readonly env: Environment;
  /** One ConversationId for the whole workflow, also when a refused session is replaced (SOAP-05). */
  readonly conversationId: string;
  /** The session token; `undefined` once refused (never sent again, SESS-07) or closed. */
  token: string | undefined;
  /** Whether the session counts against the pool: from the SessionCreateRQ until it is closed or refused. */
  holdsSlot: boolean;
  closed: boolean;
  keepAlive: NodeJS.Timeout | undefined;
  /** Requests within one session go one at a time: the service refuses concurrent use of a session. */
  tail: Promise<void>;
}

interface Outgoing {
  readonly env: Environment;
  readonly action: string;
  readonly security: RequestSecurity;
  readonly body: SoapBody;
  readonly conversationId: string;
}

/**
 * A client of the travel distribution service's auth interface: REST calls with a sessionless bearer token, SOAP
 * calls with a sessionless token, and SOAP sessions from a bounded pool.
 *
 * - REST: one token per environment (`POST /v2/auth/token`, double-base64 Basic credentials), reused until it is
 *   due for renewal on the client's own clock; concurrent first calls share one token request; a 401 drops the
 *   token and the call is retried once with a new one; `invalid_client` is reported, never retried.
 * - SOAP sessionless: one `TokenCreateRQ` token per environment, reused until it is refused.
 * - SOAP sessions: at most `sessionPoolSize` open per environment; one ConversationId per session; pinged before the
 *   inactivity timeout; closed when the caller is done, when a call in it failed, and at {@link close}.
 *   A token refused with `Client.InvalidSecurityToken` is never sent again: the session is replaced once.
 *
 * Uses the global `fetch`, so it works against MSW handlers in-process as well as over the network.
 * @see ../../../../shared/seeds/000_ca26362ee6021ee2.txt "Authentication"
 */
export class TdsClient {
  readonly #environments: Readonly<Partial<Record<Environment, DriverEnvironment>>>;
  readonly #poolSize: number;
  readonly #timeoutMs: number;
  readonly #renewBeforeSeconds: number;
  readonly #keepAliveAfterMs: number;
  readonly #poolFullBackoffMs: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #partyId: string;
  readonly #faults: ReadonlySet<ClientFault>;
  readonly #restTokens: TokenCache;
  readonly #soapTokens: TokenCache;
  readonly #sessions = new Map<string, Session>();
  /** Sessions closed by the caller but kept open, for the next opening (latitude `session-close-timing`). */
  readonly #pooled: Session[] = [];
  readonly #latitudes: ReadonlySet<ClientLatitude>;
  readonly #slots = new Map<Environment, number>();
  #closing: Promise<CloseSummary> | undefined;

  constructor(options: TdsClientOptions) {
    if (!Number.isInteger(options.sessionPoolSize) || options.sessionPoolSize < 0) {
      throw new RangeError(`"sessionPoolSize" must be a non-negative integer, not ${options.sessionPoolSize}`);
    }
    this.#environments = options.environments;
    this.#poolSize = options.sessionPoolSize;
    this.#timeoutMs = options.requestTimeoutMs ?? 30_000;
    this.#renewBeforeSeconds = options.renewBeforeExpirySeconds ?? 300;
    const sessionTimeoutSeconds = options.sessionTimeoutSeconds ?? limits.defaultSessionTimeoutSeconds;
    this.#keepAliveAfterMs = options.keepAliveAfterMs ?? Math.round((sessionTimeoutSeconds * 1000 * 2) / 3);
    this.#poolFullBackoffMs = options.poolFullBackoffMs ?? 250;
    const clock: ClientClock = options.clock ?? { now: options.now ?? Date.now, sleep: delay };
    this.#now = () => clock.now();
    this.#sleep = (ms) => clock.sleep(ms);
    this.#partyId = options.partyId ?? 'tds-reference-client';
    this.#faults = options.faults instanceof ConsultedSet ? options.faults : new Set(options.faults ?? []);
    this.#latitudes = new Set(options.latitudes ?? []);
    const policy: TokenCachePolicy = {
      reuse: !this.#faults.has('api04-token-per-call'),
      singleFlight: !this.#faults.has('api05-no-single-flight'),
      dropRefused: !this.#faults.has('life03-keeps-refused-token'),
    };
    this.#restTokens = new TokenCache((env) => this.#obtainRestToken(env), this.#now, policy);
    // Latitude rest-token-for-soap: the sessionless SOAP calls take the REST token (the same cache), renewed at the REST endpoint.
    this.#soapTokens = this.#latitudes.has('rest-token-for-soap') ? this.#restTokens
      : new TokenCache((env) => this.#createSoapToken(env), this.#now, { ...policy, dropRefused: policy.dropRefused && !this.#faults.has('life03-keeps-refused-soap-token') });
    if (this.#latitudes.has('kept-token')) {
      // A token of each environment kept from an earlier run: the service never issued it (to this simulator), so its
      // first call is refused, the token dropped and a new one obtained.
      for (const env of ['cert', 'prod'] as const) {
        if (this.#environments[env]) this.#restTokens.keep({ value: `T1RLAQkept${env}0run0Bz8Xq7Lm2Pw9Kd4Rt6Yv1Nc3Hs5Jf8Gu0Ae*`, env, renewAt: this.#now() + 3_600_000 });
      }
    }
  }

  // ---- REST ------------------------------------------------------------------------------------------------------

  /**
   * Calls a published REST API with the environment's bearer token. Answers from the API (any status) are returned;
   * a 401 is answered with one retry with a new token (LIFE-03). Throws {@link ClientError} when no token can be had.
   */
  async rest(env: Environment, method: 'GET' | 'POST', path: string, body?: unknown): Promise<RestCallResult> {
    this.#assertOpen();
    const target = this.#environment(env);
    const postFromCert = this.#faults.has('env02-cert-token-for-prod-post') && method === 'POST' && env === 'prod' && this.#environments.cert;
    const source = postFromCert ? 'cert' : this.#tokenSource(env);
    const token = await this.#restTokens.get(source);
    const first = await this.#callApi(target, token, method, path, body);
    if (first.status !== 401) return first;
    // "When the token expires, request a new one": the refused token is dropped and never sent again.
    this.#restTokens.refuse(token);
    if (this.#latitudes.has('refused-call-reported')) return first;
    const renewed = await this.#restTokens.get(source);
    return this.#callApi(target, renewed, method, path, body);
  }

  /** REST API calls sent to PROD (the PROD mutant of API-03 deviates from the second on). */
  #prodApiCalls = 0;

  async #callApi(target: DriverEnvironment, token: HeldToken, method: string, path: string, body: unknown): Promise<RestCallResult> {
    // Rule 5 of "Rules for the REST token request": `Authorization: Bearer <ACCESS_TOKEN>` on every later call.
    const authorization = this.#faults.has('api03-bearer-no-space') ? `Bearer${token.value}` : `Bearer ${token.value}`;
    const headers: Record<string, string> = { authorization, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const init = { method: method.toUpperCase(), headers, ...(body !== undefined && { body: JSON.stringify(body) }) };
    // fetch and node:http write a method in upper case whatever they are given: the mutant writes its request itself.
    // The PROD mutant writes its method in lower case from its second PROD call on.
    const prodCalls = target === this.#environments.prod ? ++this.#prodApiCalls : 0;
    const lowerCase = this.#faults.has('api03-lower-case-method') || (prodCalls > 1 && this.#faults.has('api03-prod-lower-case-later'));
    const res = lowerCase
      ? await rawExchange(joinUrl(target.restBaseUrl, path), { ...init, method: init.method.toLowerCase() }, this.#timeoutMs)
      : await this.#fetch(joinUrl(target.restBaseUrl, path), init, `${method.toUpperCase()} ${path}`);
    return { status: res.status, body: res.contentType.includes('json') ? parseJsonValue(res.text) : res.text };
  }

  /** The token request, with the deliberate retry loop and error loss of the ERR-06 mutants. */
  async #obtainRestToken(env: Environment): Promise<HeldToken> {
    const attempts = this.#faults.has('err06-retry-loop') ? FAULT_BOUNDS.invalidClientAttempts : 1;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#requestRestToken(env);
      } catch (err) {
        const invalidClient = err instanceof ClientError && err.code === 'invalid_client';
        if (invalidClient && attempt < attempts) continue;
        if (invalidClient && (this.#faults.has('err06-generic-error') || (env === 'prod' && this.#faults.has('err06-prod-generic-error')))) throw new ClientError({ kind: 'protocol', message: '500 Internal Server Error' });
        throw err;
      }
    }
  }

  /** `POST /v2/auth/token` (REST-01) with the double-base64 Basic credentials (CRED-01, CRED-02). */
  /** Token requests sent per environment (a request after the first is a refresh). */
  readonly #restTokenRequests = new Map<Environment, number>();

  async #requestRestToken(env: Environment): Promise<HeldToken> {
    const target = this.#environment(env);
    const started = this.#now();
    const sent = this.#restTokenRequests.get(env) ?? 0;
    this.#restTokenRequests.set(env, sent + 1);
    const trailingSlash = this.#faults.has('rest01-trailing-slash') || (this.#faults.has('rest01-refresh-trailing-slash') && sent > 0) ? '/' : '';
    const json = this.#faults.has('rest01-json-body');
    const path = this.#faults.has('rest01-wrong-path') ? '/v2/oauth/token' : TOKEN_PATH + trailingSlash;
    const res = await this.#fetch(joinUrl(target.restBaseUrl, path), {
      method: 'POST',
      headers: {
        authorization: this.#basicAuthorization(target, sent > 0),
        'content-type': json ? 'application/json' : FORM_CONTENT_TYPE,
        accept: 'application/json',
      },
      body: json ? JSON.stringify({ grant_type: GRANT_TYPE }) : new URLSearchParams({ grant_type: GRANT_TYPE }).toString(),
    }, `the token request of ${label(env)}`);
    const answer = parseJson(res.text);
    const field = (name: string): string | undefined => {
      const value = answer?.[name];
      return typeof value === 'string' ? value : undefined;
    };
    if (res.status < 200 || res.status > 299) {
      const error = field('error');
      const description = field('error_description');
      // ERR-06: keep the service's code and description; invalid_client is not retried (the same credentials fail again).
      throw new ClientError({
        kind: error === 'invalid_client' ? 'auth' : 'protocol',
        code: error,
        description,
        message: error === 'invalid_client'
          ? `the token endpoint of ${label(env)} refused the credentials: invalid_client`
          : `the token endpoint of ${label(env)} answered ${res.status}${error ? ` ${error}` : ''}`,
      });
    }
    const accessToken = field('access_token');
    if (!accessToken) throw new ClientError({ kind: 'protocol', message: `the token response of ${label(env)} has no "access_token"` });
    const tokenType = field('token_type');
    // RFC 6749 §7.1: the client must understand the token type (its comparison is case-insensitive).
    if (tokenType?.toLowerCase() !== TOKEN_TYPE) {
      throw new ClientError({ kind: 'protocol', message: `unexpected "token_type" value ${JSON.stringify(tokenType ?? null)}; expected "${TOKEN_TYPE}"` });
    }
    const expiresIn = Number(answer?.expires_in);
    const lifetime = Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : limits.accessTokenLifetimeSeconds;
    return { value: accessToken, env, renewAt: this.#renewAt(started, lifetime) };
  }

  #basicAuthorization(target: DriverEnvironment, refresh = false): string {
    const c = target.credentials;
    // CRED-04: the default domain `AA` where none is configured (clientIdFor supplies it).
    const soapDefault = this.#faults.has('cred04-soap-domain-as-default') || (this.#faults.has('cred04-prod-soap-domain-as-default') && target === this.#environments.prod);
    const parts = soapDefault ? { userid: c.epr, group: c.pcc, domain: c.restDomain || DEFAULT_SOAP_DOMAIN } : clientIdFor(c);
    if (refresh && this.#faults.has('cred01-refresh-no-domain')) return `Basic ${encodeCredentials(['V1', parts.userid, parts.group].join(':'), c.password)}`;
    if (this.#faults.has('cred01-no-v1')) return `Basic ${encodeCredentials([parts.userid, parts.group, parts.domain].join(':'), c.password)}`;
    if (this.#faults.has('cred01-wrong-order')) return `Basic ${encodeCredentials(['V1', parts.group, parts.userid, parts.domain].join(':'), c.password)}`;
    if (this.#faults.has('cred02-single-base64')) return `Basic ${encodeBase64Utf8(`V1:${parts.userid}:${parts.group}:${parts.domain}:${c.password}`)}`;
    const prod = this.#environments.prod;
    if (this.#faults.has('cred02-prod-password-at-cert') && prod && target === this.#environments.cert) return basicAuthorization({ ...parts, password: prod.credentials.password });
    return basicAuthorization({ ...parts, password: c.password });
  }

  /**
   * A REST token from every configured environment now (latitude `token-per-environment`; otherwise a no-op). Refused
   * credentials (`invalid_client`) are reported at once, as the configuration's error; any other trouble is left to the
   * first call that needs the token.
   */
  async obtainTokensAhead(): Promise<void> {
    if (!this.#latitudes.has('token-per-environment')) return;
    for (const env of Object.keys(this.#environments) as Environment[]) {
      await this.#restTokens.get(this.#tokenSource(env)).catch((err: unknown) => {
        if (err instanceof ClientError && err.kind === 'auth') throw err;
      });
    }
  }

  // ---- SOAP, sessionless ------------------------------------------------------------------------------------------

  /**
   * A SOAP action with the environment's sessionless `TokenCreateRQ` token. A token refused with
   * `Client.InvalidSecurityToken` is replaced once and the call retried once.
   */
  async soap(env: Environment, action: string, body: SoapBody = bodyFor(action)): Promise<SoapResult> {
    this.#assertOpen();
    this.#environment(env);
    const source = this.#tokenSource(env);
    const token = await this.#soapTokens.get(source);
    let answer = await this.#exchange({ env, action, security: this.#tokenSecurity(env, token.value), body, conversationId: this.#conversationFor(token.conversationId) });
    if (isRefusedToken(answer)) {
      this.#soapTokens.refuse(token);
      const renewed = await this.#soapTokens.get(source);
      answer = await this.#exchange({ env, action, security: this.#tokenSecurity(env, renewed.value), body, conversationId: this.#conversationFor(renewed.conversationId) });
    }
    return resultOf(answer, action);
  }

  async #createSoapToken(env: Environment): Promise<HeldToken> {
    const started = this.#now();
    const conversationId = newId(this.#partyId);
    const answer = await this.#exchange({ env, action: 'TokenCreateRQ', security: this.#usernameToken(env), body: tokenCreateRQBody(), conversationId });
    // TokenCreateRS does not say how long the token lives: the documented lifetime of a sessionless token.
    return { value: tokenOf(answer, 'TokenCreateRQ'), env, renewAt: this.#renewAt(started, limits.accessTokenLifetimeSeconds), conversationId };
  }

  // ---- SOAP sessions ----------------------------------------------------------------------------------------------

  /**
   * Opens a session (SessionCreateRQ) and answers an opaque handle. Fails with code {@link POOL_FULL} when
   * `sessionPoolSize` sessions are open in `env`; after `Client.ReachedTALimit` it retries once after a back-off.
   */
  async openSession(env: Environment): Promise<string> {
    this.#assertOpen();
    this.#environment(env);
    const pooled = this.#pooled.findIndex((s) => s.env === env && !s.closed && s.token !== undefined);
    if (pooled !== -1) {
      const [kept] = this.#pooled.splice(pooled, 1);
      kept!.handle = `session-${randomUUID()}`;
      this.#sessions.set(kept!.handle, kept!);
      return kept!.handle;
    }
    const session: Session = {
      handle: `session-${randomUUID()}`, env, conversationId: newId(this.#partyId), token: undefined, holdsSlot: false, closed: false, keepAlive: undefined,
      tail: Promise.resolve(),
    };
    await this.#acquire(session);
    if (this.#closing) {
      // Shut down while the session was being created: it must not outlive the client.
      await this.#closeNow(session).catch(() => undefined);
      this.#assertOpen();
    }
    this.#sessions.set(session.handle, session);
    this.#scheduleKeepAlive(session);
    return session.handle;
  }

  /**
   * A SOAP action within a session (`OTA_PingRQ` is the keep-alive ping). After `Client.InvalidSecurityToken` the
   * token is forgotten, a new session replaces it and the call is retried once; after any other failure the session
   * is closed and the failure reported.
   */
  async sessionCall(handle: string, action: string, body: SoapBody = bodyFor(action)): Promise<SoapResult> {
    this.#assertOpen();
    const session = this.#session(handle);
    return this.#inSession(session, async () => {
      if (session.closed) throw new ClientError({ kind: 'protocol', message: `session ${handle} is closed` });
      if (session.token === undefined) await this.#acquire(session);
      let answer = await this.#sendInSession(session, action, body);
      if (isRefusedToken(answer)) {
        if (this.#faults.has('sess07-reuses-refused-token')) {
          for (let sent = 1; sent < FAULT_BOUNDS.refusedTokenSends && isRefusedToken(answer); sent++) answer = await this.#sendInSession(session, action, body);
          return resultOf(answer, action);
        }
        // SESS-07: the refused token is never sent again, not even to close its session.
        this.#forget(session);
        await this.#acquire(session);
        answer = await this.#sendInSession(session, action, body);
        if (isRefusedToken(answer)) this.#forget(session);
      }
      const fault = answer.fault;
      if (fault && fault.faultcodeLocal !== INVALID_SECURITY_TOKEN && !this.#faults.has('sess06-never-closes') && !this.#latitudes.has('session-close-timing')) {
        // SESS-06: a call inside the session failed, so the session is closed.
        await this.#closeNow(session).catch(() => undefined);
      }
      return resultOf(answer, action);
    });
  }

  /** Closes a session (SessionCloseRQ, SESS-05). A session already closed or refused is just forgotten. */
  async closeSession(handle: string): Promise<void> {
    const session = this.#session(handle);
    if (this.#latitudes.has('session-close-timing') && !session.closed && session.token !== undefined) {
      this.#sessions.delete(handle);
      this.#pooled.push(session);
      return;
    }
    try {
      await this.#inSession(session, () => this.#closeNow(session));
    } finally {
      this.#sessions.delete(handle);
    }
  }

  /** Closes every open session and stops the keep-alive timers. The client cannot be used afterwards. */
  close(): Promise<CloseSummary> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<CloseSummary> {
    const sessions = [...this.#sessions.values(), ...this.#pooled.splice(0)];
    for (const s of sessions) this.#clearKeepAlive(s);
    const results = await Promise.allSettled(sessions.map((s) => this.#inSession(s, () => this.#closeNow(s))));
    this.#sessions.clear();
    this.#restTokens.clear();
    this.#soapTokens.clear();
    const failures = results.flatMap((r) => (r.status === 'rejected' ? [asClientError(r.reason)] : []));
    const sessionsClosed = results.reduce((n, r) => n + (r.status === 'fulfilled' && r.value ? 1 : 0), 0);
    return { sessionsClosed, failures };
  }

  /** Takes a pool slot and creates the session's token; `Client.ReachedTALimit` gets one retry after a back-off. */
  async #acquire(session: Session): Promise<void> {
    this.#takeSlot(session);
    try {
      const attempts = this.#faults.has('sess08-ta-limit-storm') ? FAULT_BOUNDS.taLimitAttempts : this.#latitudes.has('pool-full-retries') ? 4 : 2;
      for (let attempt = 1; ; attempt++) {
        // ENV-02: the session comes from the environment it is used in (the mutant opens every session in CERT).
        const from = this.#faults.has('env02-session-from-cert') && this.#environments.cert ? 'cert' : session.env;
        const answer = await this.#exchange({
          env: from, action: 'SessionCreateRQ', security: this.#usernameToken(from),
          body: sessionCreateRQBody({ pseudoCityCode: this.#environment(from).credentials.pcc }), conversationId: session.conversationId,
        });
        if (answer.fault?.faultcodeLocal === REACHED_TA_LIMIT && attempt < attempts) {
          // SESS-08: a full pool is not a reason for a retry storm.
          if (!this.#faults.has('sess08-ta-limit-storm')) await this.#sleep(this.#poolFullBackoffMs * (this.#latitudes.has('pool-full-retries') ? 2 ** (attempt - 1) : 1));
          continue;
        }
        session.token = tokenOf(answer, 'SessionCreateRQ');
        return;
      }
    } catch (err) {
      this.#releaseSlot(session);
      throw err;
    }
  }

  async #sendInSession(session: Session, action: string, body: SoapBody): Promise<ParsedEnvelope> {
    const token = session.token;
    if (token === undefined) throw new ClientError({ kind: 'protocol', message: `session ${session.handle} has no token` });
    let answer: ParsedEnvelope;
    try {
      answer = await this.#exchange({ env: session.env, action, security: this.#tokenSecurity(session.env, token), body, conversationId: this.#conversationFor(session.conversationId) });
    } catch (err) {
      // No answer: the session's state is unknown, so it is closed (SESS-06).
      if (!this.#faults.has('sess06-never-closes')) await this.#closeNow(session).catch(() => undefined);
      throw err;
    }
    this.#scheduleKeepAlive(session);
    return answer;
  }

  /** Sends SessionCloseRQ (unless the token is gone) and releases the slot. Resolves `true` when a close was sent. */
  async #closeNow(session: Session): Promise<boolean> {
    this.#clearKeepAlive(session);
    session.closed = true;
    const token = session.token;
    session.token = undefined;
    try {
      if (token === undefined || this.#faults.has('sess06-never-closes')) return false;
      const { pcc } = this.#environment(session.env).credentials;
      const timeStamp = formatEbTimestamp(new Date(this.#now()), { zone: true });
      // SESS-05: ConversationId, CPAId and the token in the header; POS/Source@PseudoCityCode, TimeStamp and Version in the body.
      const body = this.#faults.has('sess05-close-no-pos')
        ? customBody(element('SessionCloseRQ', { xmlns: NS.ota, TimeStamp: timeStamp, Version: '1.0.0' }))
        : this.#latitudes.has('soap-request-extras')
          ? customBody(element('SessionCloseRQ', { xmlns: OTA_2003, TimeStamp: timeStamp, Version: '1.0.0' }, element('POS', {}, element('Source', { PseudoCityCode: pcc }))))
          : sessionCloseRQBody({ pseudoCityCode: pcc, timeStamp });
      const answer = await this.#exchange({ env: session.env, action: 'SessionCloseRQ', security: this.#tokenSecurity(session.env, token), body, conversationId: session.conversationId });
      // A session that already timed out answers Client.InvalidSecurityToken: it is closed all the same.
      if (answer.fault && answer.fault.faultcodeLocal !== INVALID_SECURITY_TOKEN) throw faultError(answer.fault, 'SessionCloseRQ');
      return true;
    } finally {
      this.#releaseSlot(session);
    }
  }

  /** The session's token was refused: forget it (it holds no slot on the service any more). */
  #forget(session: Session): void {
    this.#clearKeepAlive(session);
    session.token = undefined;
    this.#releaseSlot(session);
  }

  #takeSlot(session: Session): void {
    if (session.holdsSlot) return;
    const inUse = this.#slots.get(session.env) ?? 0;
    if (inUse >= this.#poolSize && !this.#faults.has('sess08-pool-unbounded')) {
      throw new ClientError({
        kind: 'protocol',
        code: POOL_FULL,
        message: `the session pool of ${label(session.env)} is full (${inUse} of ${this.#poolSize} open); close a session first`,
      });
    }
    this.#slots.set(session.env, inUse + 1);
    session.holdsSlot = true;
  }

  #releaseSlot(session: Session): void {
    if (!session.holdsSlot) return;
    session.holdsSlot = false;
    this.#slots.set(session.env, (this.#slots.get(session.env) ?? 1) - 1);
  }

  /** Requests in one session run one after another. */
  #inSession<T>(session: Session, task: () => Promise<T>): Promise<T> {
    const run = session.tail.then(task);
    session.tail = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  #scheduleKeepAlive(session: Session): void {
    this.#clearKeepAlive(session);
    if (session.closed || session.token === undefined || this.#closing) return;
    const timer = setTimeout(() => void this.#keepAlive(session), this.#keepAliveAfterMs);
    // The timer alone never keeps the process alive; close() clears it.
    timer.unref();
    session.keepAlive = timer;
  }

  #clearKeepAlive(session: Session): void {
    if (session.keepAlive !== undefined) clearTimeout(session.keepAlive);
    session.keepAlive = undefined;
  }

  /** The keep-alive ping (OTA_PingRQ, "the recommended simple ping"), sent before the inactivity timeout. */
  async #keepAlive(session: Session): Promise<void> {
    session.keepAlive = undefined;
    await this.#inSession(session, async () => {
      const token = session.token;
      if (session.closed || token === undefined || this.#closing) return;
      let answer: ParsedEnvelope;
      try {
        answer = await this.#exchange({ env: session.env, action: 'OTA_PingRQ', security: this.#tokenSecurity(session.env, token), body: this.#latitudes.has('soap-request-extras') ? customBody(element('OTA_PingRQ', { xmlns: OTA_2003, Version: '1.0.0' })) : otaPingRQBody(), conversationId: this.#conversationFor(session.conversationId) });
      } catch {
        this.#scheduleKeepAlive(session); // no answer: try again after another interval
        return;
      }
      if (isRefusedToken(answer)) this.#forget(session);
      else if (answer.fault) await this.#closeNow(session).catch(() => undefined);
      else this.#scheduleKeepAlive(session);
    }).catch(() => undefined);
  }

  #session(handle: string): Session {
    const session = this.#sessions.get(handle);
    if (!session) throw new ClientError({ kind: 'protocol', message: `unknown session handle ${JSON.stringify(handle)}` });
    return session;
  }

  // ---- SOAP envelopes ---------------------------------------------------------------------------------------------

  /** Builds, posts and parses one SOAP request. Faults come back as envelopes; no answer throws a ClientError. */
  async #exchange(out: Outgoing): Promise<ParsedEnvelope> {
    const target = this.#environment(out.env);
    const { credentials } = target;
    const laterCall = !isTokenCreating(out.action);
    // SOAP-01: the complete eb:MessageHeader; SOAP-05: CPAId is the PCC; SOAP-04: eb:Action is the called action.
    const header = makeRequestHeader({
      action: laterCall && this.#faults.has('soap04-action-ota') ? 'OTA' : out.action,
      service: out.action,
      cpaId: this.#faults.has('soap05-cpaid-epr') || (target === this.#environments.prod && this.#faults.has('soap05-prod-cpaid-epr')) ? credentials.epr : credentials.pcc,
      conversationId: out.conversationId,
      messageId: newId(this.#partyId),
      now: new Date(this.#now()),
      from: this.#partyId,
    });
    let xml = applyEnvelopeFaults(buildRequest({ header, security: out.security, body: out.body }), out.action, this.#faults);
    if (this.#latitudes.has('soap-request-extras')) {
      xml = xml.replace(/<((?:[\w.-]+:)?Header)(\s[^>]*)?>/, (open) => `${open}<tr:Trace xmlns:tr="urn:example:trace">${newId(this.#partyId)}</tr:Trace>`)
        .replace(/ eb:version="[^"]*"/, ' eb:version="2.0"');
    }
    const res = await this.#fetch(target.soapUrl, {
      method: 'POST',
      headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: out.action, accept: 'text/xml' },
      body: xml,
    }, `${out.action} in ${label(out.env)}`);
    const parsed = parseEnvelope(res.text);
    if (!parsed.ok) {
      throw new ClientError({ kind: 'protocol', message: `the answer to ${out.action} is not a SOAP envelope (HTTP ${res.status}, ${parsed.code})` });
    }
    return parsed.envelope;
  }

  /** SOAP-03: Username (EPR), Password, Organization (PCC) and Domain (the SOAP domain, `DEFAULT` unless configured). */
  #usernameToken(env: Environment): RequestSecurity {
    const c = this.#environment(env).credentials;
    const domain = this.#faults.has('soap03-rest-domain') ? c.restDomain || DEFAULT_REST_DOMAIN : c.soapDomain || DEFAULT_SOAP_DOMAIN;
    return usernameToken({ username: c.epr, password: c.password, organization: c.pcc, domain });
  }

  /** SOAP-04: later calls carry the token in wsse:BinarySecurityToken. */
  #tokenSecurity(env: Environment, token: string): RequestSecurity {
    if (this.#faults.has('soap04-token-as-password')) {
      const c = this.#environment(env).credentials;
      return usernameToken({ username: c.epr, password: token, organization: c.pcc, domain: c.soapDomain || DEFAULT_SOAP_DOMAIN });
    }
    return { kind: 'binarySecurityToken', token };
  }

  #conversationFor(workflow: string | undefined): string {
    return workflow === undefined || this.#faults.has('soap05-conversation-per-call') ? newId(this.#partyId) : workflow;
  }

  // ---- shared -----------------------------------------------------------------------------------------------------

  #environment(env: Environment): DriverEnvironment {
    const target = this.#environments[env];
    if (!target) throw new ClientError({ kind: 'unsupported', message: `no ${label(env)} environment is configured` });
    return target;
  }

  /** ENV-02: a token comes from the environment it is used in (the mutant takes one environment's token everywhere). */
  #tokenSource(env: Environment): Environment {
    if (!this.#faults.has('env02-one-token-for-all')) return env;
    return this.#environments.cert ? 'cert' : env;
  }

  #renewAt(issuedAt: number, lifetimeSeconds: number): number {
    const margin = Math.min(this.#renewBeforeSeconds, lifetimeSeconds / 10);
    return issuedAt + (lifetimeSeconds - margin) * 1000;
  }

  #assertOpen(): void {
    if (this.#closing) throw new ClientError({ kind: 'protocol', message: 'the client is shut down' });
  }

  /** One HTTP exchange with a time limit; no answer is a `transport` error. Redirects are not followed with credentials. */
  async #fetch(url: string, init: RequestInit, what: string): Promise<{ status: number; contentType: string; text: string }> {
    try {
      const res = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(this.#timeoutMs) });
      return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      const reason = timedOut ? `no answer within ${this.#timeoutMs} ms` : err instanceof Error ? err.message : String(err);
      throw new ClientError({ kind: 'transport', message: `${what} failed: ${reason}` });
    }
  }
}

// ---- helpers ------------------------------------------------------------------------------------------------------

/** Another OTA namespace than the one the harness's own bodies use (latitude `soap-request-extras`). */
const OTA_2003 = 'http://www.opentravel.org/OTA/2003/05';

/**
 * One HTTP/1.1 exchange written on a socket as given, the method's case kept (the `api03-lower-case-method` mutant; a
 * plain `http:` URL, one request per connection). Any failure is a `transport` error.
 */
function rawExchange(url: string, init: { readonly method: string; readonly headers: Record<string, string>; readonly body?: string }, timeoutMs: number): Promise<{ status: number; contentType: string; text: string }> {
  const u = new URL(url);
  const body = Buffer.from(init.body ?? '');
  const head = [`${init.method} ${u.pathname}${u.search} HTTP/1.1`, `host: ${u.host}`, 'connection: close', `content-length: ${body.length}`,
    ...Object.entries(init.headers).map(([k, v]) => `${k}: ${v}`)].join('\r\n');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port || 80) }, () => socket.end(Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), body])));
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (err) => reject(new ClientError({ kind: 'transport', message: `${init.method} ${u.pathname} failed: ${err.message}` })));
    socket.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const split = raw.indexOf('\r\n\r\n');
      const [statusLine = '', ...fields] = raw.slice(0, split < 0 ? raw.length : split).split('\r\n');
      const field = (name: string) => fields.find((f) => f.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim();
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), contentType: field('content-type') ?? '', text: split < 0 ? '' : raw.slice(split + 4) });
    });
  });
}

function label(env: Environment): string {
  return env.toUpperCase();
}

function newId(partyId: string): string {
  return `${randomUUID()}@${partyId}`;
}

function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}

/** A JSON body as a value, or the text itself when it is not JSON. */
function parseJsonValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A JSON object body, or `undefined` when the body is not one. */
function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function isTokenCreating(action: string): boolean {
  return action === 'TokenCreateRQ' || action === 'SessionCreateRQ';
}

/** The request body of the actions the client knows; another action gets an empty OTA element of its name. */
export function bodyFor(action: string): SoapBody {
  switch (action) {
    case 'OTA_PingRQ':
      return otaPingRQBody();
    case 'OTA_HotelAvailLLSRQ':
      return hotelAvailLLSRQBody();
    case 'BargainFinderMaxRQ':
      return bargainFinderMaxRQBody();
    default:
      return customBody(element(action, { xmlns: NS.ota, Version: '1.0.0' }));
  }
}

function isRefusedToken(envelope: ParsedEnvelope): boolean {
  return envelope.fault?.faultcodeLocal === INVALID_SECURITY_TOKEN;
}

/** A SOAP fault as a ClientError: code = the faultcode without prefix, description = the faultstring. */
export function faultError(fault: ParsedFault, action: string): ClientError {
  const code = fault.faultcodeLocal;
  return new ClientError({
    kind: AUTH_FAULTS.has(code) ? 'auth' : 'protocol',
    code,
    description: fault.faultstring,
    // The faultstring may quote the token: it stays in `description`, out of the message.
    message: `${action} failed with SOAP fault ${code}`,
  });
}

function resultOf(envelope: ParsedEnvelope, action: string): SoapResult {
  if (envelope.fault) throw faultError(envelope.fault, action);
  return { action: envelope.action ?? '', envelope };
}

/** The token in the response's wsse:BinarySecurityToken (TokenCreateRS, SessionCreateRS). */
function tokenOf(envelope: ParsedEnvelope, action: string): string {
  if (envelope.fault) throw faultError(envelope.fault, action);
  const s = envelope.security;
  const token = s.kind === 'binarySecurityToken' ? s.token : s.kind === 'both' ? s.binarySecurityToken.token : '';
  if (!token) throw new ClientError({ kind: 'protocol', message: `the answer to ${action} carries no wsse:BinarySecurityToken` });
  return token;
}

function asClientError(reason: unknown): ClientError {
  if (reason instanceof ClientError) return reason;
  return new ClientError({ kind: 'protocol', message: reason instanceof Error ? reason.message : String(reason) });
}
