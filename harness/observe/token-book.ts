/**
 * The tokens the running judge knows (issued during the observation, or seen used), with the facts the rules read of
 * each: how it was issued, its uses, refusals and close, and for a session its calls. Bounded: beyond `kept` tokens,
 * one that no verdict still waits on (a session closed or ended, a token no longer used) is
 * folded into the rules' state (`onEvict`) and forgotten, the least recently used first. A forgotten token the client sends again is read as a
 * token from before the observation: see docs/traffic.md for what that can change (nothing a conforming client does).
 */
import type { IssuedToken } from './exchange-facts.ts';
import type { ObservedExchange } from './exchange.ts';

/** What a session's token says of the session (SESS-05..08, SOAP-05). */
export interface SessionFacts {
  /** The exchange that opened it (evidence of a session left open, and of SOAP-05). */
  readonly create: ObservedExchange;
  /** When its first SessionCloseRQ started. */
  closedAt: number | undefined;
  /** The first call inside it that failed with an answer, and the first left unanswered. */
  failedAnswered: ObservedExchange | undefined;
  failedUnanswered: ObservedExchange | undefined;
  /** The ConversationIds of its SessionCreateRQ and of the requests with its token, each once, in order. */
  readonly conversations: (string | undefined)[];
  /** Requests that carried its token, and the first two of them (SOAP-05 evidence). */
  inSession: number;
  readonly firstCalls: ObservedExchange[];
  /** When its latest request (its token in wsse:BinarySecurityToken, or anywhere) started: it held a slot until then at least. */
  lastCallAt: number | undefined;
}

export interface TokenRecord {
  readonly value: string;
  /** How it was issued (the last time, as the batch judge's map keeps it); `undefined`: seen used only. */
  issued: IssuedToken | undefined;
  /** The service issued it (in any answer): a later UsernameToken carrying it as a password still uses it. */
  issuedSeen: boolean;
  /** The order in which tokens were issued (sessions are judged in this order). */
  order: number;
  /** Requests that carried it. */
  uses: number;
  /** The earliest end of a refused use (API-04), and the end of the first refused use by start (sessions). */
  minRejectedEnd: number;
  firstRejectedEnd: number | undefined;
  /** API-05: the end of its previous REST use, and whether two consecutive REST uses overlapped. */
  lastRestEnd: number | undefined;
  restOverlap: boolean;
  /** ERR-04: when its first SessionCloseRQ was answered. */
  closeAnsweredAt: number;
  /** For a session token. */
  session: SessionFacts | undefined;
  /** Verdicts still wait on it (a client's newest tokens, a candidate failure): never forgotten while pinned. */
  pins: number;
}

/** Tokens kept by default: ample for the sessions a client holds at once and those it closed lately. */
export const TOKENS_KEPT = 1_024;

export class TokenBook {
  readonly #records = new Map<string, TokenRecord>();
  readonly #kept: number;
  readonly #onEvict: (r: TokenRecord) => void;
  readonly #stillOpen: (r: TokenRecord) => boolean;
  #issuedCount = 0;
  #evicted = 0;

  /**
   * `stillOpen`: a session a verdict still waits on (neither closed nor ended); `onEvict`: folds a token's facts
   * into the rules' state before it is forgotten.
   */
  constructor(options: { kept?: number | undefined; stillOpen: (r: TokenRecord) => boolean; onEvict: (r: TokenRecord) => void }) {
    this.#kept = options.kept ?? TOKENS_KEPT;
    this.#onEvict = options.onEvict;
    this.#stillOpen = options.stillOpen;
  }

  get(value: string): TokenRecord | undefined {
    return this.#records.get(value);
  }

  /** The record of `value`, made when it is first met. */
  at(value: string): TokenRecord {
    let r = this.#records.get(value);
    if (!r) {
      r = {
        value, issued: undefined, issuedSeen: false, order: Number.MAX_SAFE_INTEGER, uses: 0, minRejectedEnd: Infinity, firstRejectedEnd: undefined, lastRestEnd: undefined,
        restOverlap: false, closeAnsweredAt: Infinity, session: undefined, pins: 0,
      };
      this.#records.set(value, r);
      this.#bound();
    }
    return r;
  }

  /** Records that `token` was issued. */
  issue(token: IssuedToken, session?: SessionFacts): TokenRecord {
    const r = this.at(token.value);
    r.issued = token;
    r.order = this.#issuedCount++;
    if (session) r.session = session;
    return r;
  }

  /** `r` was used: the least recently used are forgotten first. */
  touch(r: TokenRecord): void {
    if (this.#records.get(r.value) !== r) return;
    this.#records.delete(r.value);
    this.#records.set(r.value, r);
  }

  /** The records kept, least recently used first. */
  records(): IterableIterator<TokenRecord> {
    return this.#records.values();
  }

  get size(): number {
    return this.#records.size;
  }

  /** How many were forgotten. */
  get evicted(): number {
    return this.#evicted;
  }

  #bound(): void {
    if (this.#records.size <= this.#kept) return;
    // The oldest first; one still waited on goes to the back (so that each is passed over once per round).
    let passes = this.#records.size;
    for (const [value, r] of this.#records) {
      if (this.#records.size <= this.#kept || passes-- <= 0) break;
      this.#records.delete(value);
      if (r.pins > 0 || this.#stillOpen(r)) {
        this.#records.set(value, r);
        continue;
      }
      this.#evicted++;
      this.#onEvict(r);
    }
  }
}
