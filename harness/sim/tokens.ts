import type { Environment, TokenKind } from '../catalog/index.ts';
import type { SimAccount } from './accounts.ts';
import { BASE64_ALPHABET, type Random } from './random.ts';

export interface IssuedToken {
  readonly token: string;
  readonly kind: TokenKind;
  readonly env: Environment;
  readonly account: SimAccount;
  /** How the token was obtained. */
  readonly via: 'rest' | 'soap';
  readonly issuedAt: number;
  /** Sessionless: issuedAt + lifetime. Session: last use + the account's inactivity timeout. */
  expiresAt: number;
  uses: number;
  /** Uses on the REST APIs (a defect refuses tokens after the first). */
  restUses?: number;
  closedAt?: number;
  /** The ConversationId the session was created with (session tokens). */
  conversationId?: string;
  /**
   * A sessionless token that holds a pool slot all the same (the defect `stok01-token-takes-slot`): until when, as a
   * session would (the account's inactivity timeout after its last use).
   */
  slotUntil?: number;
  /** A closed session that keeps its pool slot until its timeout (the defect `sess02-used-close-keeps-slot`). */
  closedKeepingSlot?: boolean;
}

export type TokenState = 'valid' | 'expired' | 'closed';

export function tokenState(token: IssuedToken, now: number): TokenState {
  if (token.closedAt !== undefined) return 'closed';
  return now < token.expiresAt ? 'valid' : 'expired';
}

const EMPTY: ReadonlySet<IssuedToken> = new Set();
const accountIds = new WeakMap<SimAccount, number>();
let nextAccountId = 0;

function sessionKey(env: Environment, account: SimAccount): string {
  let id = accountIds.get(account);
  if (id === undefined) accountIds.set(account, (id = ++nextAccountId));
  return `${env}:${id}`;
}

const HEX = '0123456789abcdef';
const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Sessionless access tokens look like `T1RLAQ…*` on the public service (PUBLIC-FACTS.md); a conforming service may
 * use any non-empty string (latitude `token-format`).
 */
export function newAccessToken(random: Random, format: 'public' | 'hex' | 'jwt' | 'short' | 'uuid' = 'public'): string {
  switch (format) {
    case 'public': return `T1RLAQ${random.chars(BASE64_ALPHABET, 118)}*`;
    case 'hex': return random.chars(HEX, 64);
    case 'jwt': return `eyJhbGciOiJSUzI1NiJ9.${random.chars(URL_SAFE, 80)}.${random.chars(URL_SAFE, 43)}`;
    case 'short': return random.chars(URL_SAFE, 12);
    case 'uuid': {
      const h = random.chars(HEX, 32);
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
    }
  }
}

/** Session tokens look like the real service's IDL session references, backslashes included. */
export function newSessionToken(random: Random): string {
  const id = `-${random.digits(19)}`;
  return `Shared/IDL:IceSess\\/SessMgr:1\\.0.IDL/Common/!ICESMS\\/RESE!ICESMSLB\\/RES.LB!${id}!${random.digits(6)}!0`;
}

/** Every token the simulator issued, by value. Expired tokens are pruned once they are long past use. */
export class TokenStore {
  #tokens = new Map<string, IssuedToken>();
  /** Sessionless tokens by their value in lower case (for a service that reads tokens in any letter case). */
  #folded = new Map<string, IssuedToken>();
  /**
   * Session tokens per account and environment that may still hold a pool slot: pool accounting without a scan of
   * every token, nor of every session the account ever closed.
   */
  #sessions = new Map<string, Set<IssuedToken>>();
  #pruneAt = 10_000;

  add(token: IssuedToken, now: number): void {
    this.#tokens.set(token.token, token);
    if (token.kind === 'sessionless') this.#folded.set(token.token.toLowerCase(), token);
    if (token.kind === 'session' || token.slotUntil !== undefined) this.#holding(token);
    if (this.#tokens.size >= this.#pruneAt) this.#prune(now);
  }
  /** Counts `token` in its account's pool (`sessionsOf`). */
  #holding(token: IssuedToken): void {
    const key = sessionKey(token.env, token.account);
    let set = this.#sessions.get(key);
    if (!set) this.#sessions.set(key, (set = new Set()));
    set.add(token);
  }
  /**
   * The session tokens of the account in `env` the store still holds, in any state, but those released (and the
   * sessionless tokens that hold a slot: see {@link IssuedToken.slotUntil}).
   */
  sessionsOf(env: Environment, account: SimAccount): ReadonlySet<IssuedToken> {
    return this.#sessions.get(sessionKey(env, account)) ?? EMPTY;
  }
  /** A sessionless token that takes a pool slot from now on (see {@link IssuedToken.slotUntil}): counted in `sessionsOf`. */
  holdSlot(token: IssuedToken, until: number): void {
    token.slotUntil = until;
    this.#holding(token);
  }
  /** Leaves a session out of `sessionsOf` from now on: for a session that can never hold a pool slot again. */
  releaseSession(token: IssuedToken): void {
    this.#sessions.get(sessionKey(token.env, token.account))?.delete(token);
  }
  get(value: string): IssuedToken | undefined {
    return this.#tokens.get(value);
  }
  /** The sessionless token whose value equals `value` in any letter case. */
  getFolded(value: string): IssuedToken | undefined {
    return this.#folded.get(value.toLowerCase());
  }
  has(value: string): boolean {
    return this.#tokens.has(value);
  }
  /** The newest token of `kind` issued to the account in `env`. */
  /** The newest token of the account of a kind in `env`, issued through `via` when given. */
  latestFor(env: Environment, account: SimAccount, kind: TokenKind, via?: 'rest' | 'soap'): IssuedToken | undefined {
    let latest: IssuedToken | undefined;
    for (const t of this.#tokens.values()) {
      if (t.env === env && t.account === account && t.kind === kind && (via === undefined || t.via === via) && (!latest || t.issuedAt >= latest.issuedAt)) latest = t;
    }
    return latest;
  }
  all(): IterableIterator<IssuedToken> {
    return this.#tokens.values();
  }
  get size(): number {
    return this.#tokens.size;
  }

  /** Forgets tokens that expired or closed more than a day ago (they are refused the same as unknown ones). */
  #prune(now: number): void {
    const horizon = now - 86_400_000;
    for (const [value, t] of this.#tokens) {
      const end = t.closedAt ?? t.expiresAt;
      if (end < horizon) {
        this.#tokens.delete(value);
        if (this.#folded.get(value.toLowerCase()) === t) this.#folded.delete(value.toLowerCase());
        if (t.kind === 'session' || t.slotUntil !== undefined) this.#sessions.get(sessionKey(t.env, t.account))?.delete(t);
      }
    }
    this.#pruneAt = Math.max(10_000, this.#tokens.size * 2);
  }
}
