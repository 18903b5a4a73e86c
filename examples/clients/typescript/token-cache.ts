import type { Environment } from '../../../harness/clients/protocol.ts';

/** A sessionless token as the client holds it. */
export interface HeldToken {
  readonly value: string;
  /** The environment that issued it: the only one it is ever sent to (ENV-02). */
  readonly env: Environment;
  /** When to stop using it, by the client's own clock: its lifetime minus a safety margin, counted from the request. */
  readonly renewAt: number;
  /** SOAP: the ConversationId of the TokenCreateRQ, kept for the calls made with this token (SOAP-05). */
  readonly conversationId?: string;
}

/** How the cache behaves. The reference client uses {@link CORRECT_POLICY}; other values exist for mutant clients. */
export interface TokenCachePolicy {
  /** Reuse a held token until `renewAt` (API-04). */
  readonly reuse: boolean;
  /** Let concurrent callers that find no token share one request for it (API-05). */
  readonly singleFlight: boolean;
  /** Forget a token once the service refused it (LIFE-03). */
  readonly dropRefused: boolean;
}

export const CORRECT_POLICY: TokenCachePolicy = { reuse: true, singleFlight: true, dropRefused: true };

/**
 * Sessionless tokens, one per environment: reused until they are due for renewal or refused, obtained at most once
 * at a time per environment however many callers ask together.
 */
export class TokenCache {
  readonly #held = new Map<Environment, HeldToken>();
  readonly #pending = new Map<Environment, Promise<HeldToken>>();
  readonly #obtain: (env: Environment) => Promise<HeldToken>;
  readonly #now: () => number;
  readonly #policy: TokenCachePolicy;

  constructor(obtain: (env: Environment) => Promise<HeldToken>, now: () => number, policy: TokenCachePolicy = CORRECT_POLICY) {
    this.#obtain = obtain;
    this.#now = now;
    this.#policy = policy;
  }

  /** The token to use in `env` now: the held one while it is good, else a new one (shared with concurrent callers). */
  get(env: Environment): Promise<HeldToken> {
    const held = this.#held.get(env);
    if (held && this.#policy.reuse && this.#now() < held.renewAt) return Promise.resolve(held);
    if (!this.#policy.singleFlight) return this.#request(env);
    let pending = this.#pending.get(env);
    if (!pending) {
      pending = this.#request(env).finally(() => this.#pending.delete(env));
      this.#pending.set(env, pending);
    }
    return pending;
  }

  /**
   * The service refused `token`: forget it, unless a newer one already replaced it (callers that shared a refused
   * token all report it; only the first drops it, the others then get the replacement).
   */
  refuse(token: HeldToken): void {
    if (this.#policy.dropRefused && this.#held.get(token.env) === token) this.#held.delete(token.env);
  }

  /** Holds `token` as if it had been obtained: a token kept from an earlier run (a cache that outlives the process). */
  keep(token: HeldToken): void {
    this.#held.set(token.env, token);
  }

  clear(): void {
    this.#held.clear();
  }

  async #request(env: Environment): Promise<HeldToken> {
    const token = await this.#obtain(env);
    this.#held.set(env, token);
    return token;
  }
}
