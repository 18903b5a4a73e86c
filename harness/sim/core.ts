import { randomInt } from 'node:crypto';
import { frontAnswer, frontRewrite, type Front } from './front.ts';
import { findRestEndpoint, restEndpoints, TOKEN_PATH, type Environment } from '../catalog/index.ts';
import type { DecodedCredentials } from '../credentials/index.ts';
import { AccountIndex, simAccount, type AccountsByEnvironment, type SimAccount, type SimAccountInput } from './accounts.ts';
import type { Clock } from './clock.ts';
import { ConsultedDefects, parseDefects, type DefectId } from './defects.ts';
import { EventLog, type SimEvent } from './events.ts';
import { json, type SimRequest, type SimResponse } from './http.ts';
import { DEFAULT_PROFILE, type LatitudeProfile } from './latitude.ts';
import { Random } from './random.ts';
import { handleApiCall, handleTokenRequest, type RestContext, type RestResult } from './rest.ts';
import type { HandlerContext } from './handler-context.ts';
import { handleSoap } from './soap.ts';
import { tokenState, TokenStore } from './tokens.ts';

/** The path the simulator's SOAP endpoint answers on (one POST endpoint, dispatch on eb:Action). */
export const SOAP_PATH = '/websvc';

export interface SimOptions {
  readonly clock: Clock;
  readonly accounts: AccountsByEnvironment;
  /** Deviations to switch on (self-tests). */
  readonly defects?: readonly string[];
  /** Seed of the ID generator, and of the token generator with {@link SimOptions.tokenSalt}. */
  readonly seed?: number;
  /**
   * Mixed into the seed of the token values only (default: drawn at random for each simulator): two simulators never
   * issue the same token, so a token a client kept from an earlier run (a cache outlives a process) is one this
   * simulator never issued, as with a real service. Verdicts never depend on a token's value.
   */
  readonly tokenSalt?: number;
  /** Bound of the event log. */
  readonly maxEvents?: number;
  /** How the simulator uses the freedoms the document leaves (`DEFAULT_PROFILE`: as the public service does). */
  readonly profile?: LatitudeProfile;
}

/**
 * The simulated service: accounts per environment, issued tokens, sessions and an event log of every request.
 * Pure: no I/O, time only from the injected clock. The MSW handlers and the loopback server are thin adapters.
 */
export class SimCore implements HandlerContext {
  readonly clock: Clock;
  readonly defects: ReadonlySet<DefectId>;
  readonly #defects: ConsultedDefects;
  readonly tokens = new TokenStore();
  readonly events: EventLog;
  readonly random: Random;
  /** The source of token values (see {@link SimOptions.tokenSalt}). */
  readonly tokenRandom: Random;
  readonly profile: LatitudeProfile;
  #accounts: Record<Environment, SimAccount[]> = { cert: [], prod: [] };
  /** The accounts by the logins that find them, so that a request costs the same however many accounts were added. */
  #byLogin: Record<Environment, AccountIndex> = { cert: new AccountIndex(), prod: new AccountIndex() };

  constructor(options: SimOptions) {
    this.clock = options.clock;
    this.#defects = new ConsultedDefects(parseDefects(options.defects ?? []));
    this.defects = this.#defects;
    this.random = new Random(options.seed ?? 1);
    this.tokenRandom = new Random(((options.seed ?? 1) ^ (options.tokenSalt ?? randomInt(0x7fffffff))) >>> 0);
    this.profile = options.profile ?? DEFAULT_PROFILE;
    this.events = new EventLog(options.maxEvents);
    for (const env of ['cert', 'prod'] as const) for (const account of options.accounts[env]) this.#add(env, account);
  }

  /**
   * The defects this simulator asked about so far (`all` once it read the set otherwise): it answered every request as
   * it would have with any other defect switched on or off (see {@link ConsultedDefects}).
   */
  get consultedDefects(): ReadonlySet<DefectId> | 'all' {
    return this.#defects.consulted;
  }

  accountsIn(env: Environment): readonly SimAccount[] {
    return this.#accounts[env];
  }

  addAccount(env: Environment, input: SimAccountInput): SimAccount {
    const account = simAccount(input);
    this.#add(env, account);
    return account;
  }

  #add(env: Environment, account: SimAccount): void {
    this.#accounts[env].push(account);
    this.#byLogin[env].add(account);
  }

  /** Sessions that still hold a pool slot, across all accounts. */
  openSessionCount(): number {
    const now = this.clock.now();
    let n = 0;
    for (const t of this.tokens.all()) if ((t.kind === 'session' && tokenState(t, now) === 'valid') || (t.slotUntil !== undefined && now < t.slotUntil)) n++;
    return n;
  }

  /** Ends a token now: refused from here on, and a session's pool slot is released. `false` for an unknown token. */
  revokeToken(value: string): boolean {
    const token = this.tokens.get(value);
    if (!token) return false;
    token.expiresAt = Math.min(token.expiresAt, this.clock.now());
    return true;
  }

  /** Made once (not per request): what the request handlers look accounts up with. */
  readonly #accountsIn = (env: Environment): readonly SimAccount[] => this.accountsIn(env);
  readonly #accountIndex = (env: Environment): AccountIndex => this.#byLogin[env];
  /** Decoded Authorization headers: clients send the same one again and again. */
  readonly #credentialCache = new Map<string, DecodedCredentials>();

  restContext(): RestContext {
    return {
      now: this.clock.now(),
      defects: this.defects,
      profile: this.profile,
      tokens: this.tokens,
      random: this.random,
      tokenRandom: this.tokenRandom,
      accountsIn: this.#accountsIn,
      accountIndex: this.#accountIndex,
      credentialCache: this.#credentialCache,
    };
  }

  /** The gateway in front of the service (see `front.ts`). */
  readonly #front: Front = { seen: 0 };

  handle(req: SimRequest): SimResponse {
    // What the gateway answers itself never reaches the service: no event.
    const own = frontAnswer(this.#front, this.profile, this.defects, req, TOKEN_PATH);
    if (own) return own;
    const result = this.#dispatch(req);
    const response = frontRewrite(this.#front, this.defects, req, result.response, { token: TOKEN_PATH, soap: SOAP_PATH });
    const event: Omit<SimEvent, 'seq'> = {
      at: this.clock.now(),
      env: req.env,
      protocol: req.path === SOAP_PATH ? 'soap' : 'rest',
      method: req.method,
      path: req.path,
      headers: req.headers,
      body: req.body,
      status: response.kind === 'response' ? response.status : 0,
      outcome: result.outcome,
      ...(result.clientId !== undefined && { clientId: result.clientId }),
      ...(result.tokenUsed !== undefined && { tokenUsed: result.tokenUsed }),
      ...(result.tokenIssued !== undefined && { tokenIssued: result.tokenIssued }),
      ...(result.tokenKind !== undefined && { tokenKind: result.tokenKind }),
      ...(result.action !== undefined && { action: result.action }),
      ...(result.detail !== undefined && { detail: result.detail }),
      ...(response.kind === 'response' && response.status >= 400 && { answer: response.body.slice(0, 2_000) }),
    };
    this.events.append(event);
    return response;
  }

  #dispatch(req: SimRequest): RestResult {
    if (req.path === TOKEN_PATH) {
      if (req.method !== 'POST') return notFound(405, `${req.method} is not allowed on ${TOKEN_PATH}; use POST`);
      return handleTokenRequest(this.restContext(), req);
    }
    if (req.path === SOAP_PATH) return handleSoap(this, req);
    const endpoint = findRestEndpoint(req.method, req.path);
    if (endpoint) return handleApiCall(this.restContext(), req, endpoint);
    if (restEndpoints.some((e) => e.path === req.path)) return notFound(405, `${req.method} is not allowed on ${req.path}`);
    return notFound(404, `no API at ${req.path}`);
  }
}

function notFound(status: number, message: string): RestResult {
  return { response: json(status, { status: 'NotProcessed', type: 'Validation', errorCode: status === 404 ? 'ERR.2SG.PROXY.NOT_FOUND' : 'ERR.2SG.PROXY.METHOD_NOT_ALLOWED', message }), outcome: 'not-found' };
}
