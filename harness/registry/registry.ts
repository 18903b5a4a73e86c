import { emptyFacts, mergeFacts, type ProfileFacts } from '../profile/fact-counts.ts';
import type { Environment } from '../catalog/index.ts';

/** A session a worker opened on a live target: what the main process needs to close it itself. */
export interface RegisteredSession {
  readonly env: Environment;
  /** The session token (a secret: it never leaves the harness's processes). */
  readonly token: string;
  readonly conversationId: string;
  readonly cpaId: string;
}

/** Token- and session-creating requests a run may send (`--max-tokens`, `--max-sessions`). */
export interface Limits {
  readonly tokens: number;
  readonly sessions: number;
}

/**
 * What a route to a token showed (an environment, an account, a form): refused, with the answer in words (status and
 * error code, no secret), or served without an access token. A route that was served is not kept: a check that needs
 * a token sends its own request for one.
 */
export interface RouteOutcome {
  readonly kind: 'refused' | 'tokenless';
  readonly answer: string;
}

/**
 * Tokens kept for the root checks (CRED-03's configured account, the refusals ERR-01..03 judge): whatever order the
 * test files run in, the checks every other one builds on get their requests. A quarter of a small budget.
 */
export const ROOT_RESERVE_TOKENS = 12;

/** What a token- or session-creating request may do: go ahead, or not (budget spent, run interrupted). */
export type Reservation =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: 'budget'; readonly resource: 'tokens' | 'sessions'; readonly limit: number }
  | { readonly ok: false; readonly reason: 'interrupted' };

/**
 * How one close attempt ended: the service closed the session, or answered with a fault (it no longer holds the
 * session, or will not close it: either way there is nothing more to do but let it expire).
 * A close that got no answer throws (the session may still be open).
 */
export type CloseAnswer = { readonly kind: 'closed' } | { readonly kind: 'refused'; readonly fault: string };

/** Sends one `SessionCloseRQ` for `session` with this time limit. Throws when no answer came. */
export type SessionCloser = (session: RegisteredSession, timeoutMs: number) => Promise<CloseAnswer>;

/** What one round of closing did. */
export interface CloseSummary {
  /** Sessions the service closed. */
  readonly closed: number;
  /** Sessions whose close the service answered with a fault (fault codes, one per session). */
  readonly refused: readonly string[];
  /** Sessions still open: the close got no answer in time. */
  readonly open: number;
}

/** Session counts of a run, as the registry saw them. */
export interface SessionCounts {
  /** Tokens the run's requests created (a refused request creates none: it is refunded). */
  readonly tokens: number;
  /** Token-creating requests sent (`POST /v2/auth/token`, `TokenCreateRQ`), refused ones included. */
  readonly tokenRequests: number;
  /** `SessionCreateRQ`s sent, refused ones included. */
  readonly sessionRequests: number;
  readonly sessionsOpened: number;
  /** Sessions whose close was answered (by a check or by the main process), a refusal included. */
  readonly sessionsClosed: number;
  /** Sessions neither the checks nor the main process could close. */
  readonly sessionsOpen: number;
}

/**
 * The run's list of open sessions and its budget, held by the main CLI process (the one that outlives its test
 * workers): workers reserve each token- or session-creating request here, register each session before they use its
 * token, and report each close. On an interruption the main process closes what is still open itself.
 */
export class SessionRegistry {
  readonly #budget: Limits;
  readonly #closer: SessionCloser;
  readonly #open = new Map<string, RegisteredSession>();
  /** Close attempts in flight, and the token each is for. */
  readonly #attempts = new Map<Promise<unknown>, string>();
  /** Waiters for a session to leave the open list (whoever closed it). */
  readonly #gone = new Map<string, (() => void)[]>();
  #tokens = 0;
  #sessions = 0;
  #tokenRequests = 0;
  #sessionRequests = 0;
  #opened = 0;
  #closed = 0;
  #refused: string[] = [];
  #stopped = false;
  /** What each route showed, by its key (a hash: no account value). */
  readonly #routes = new Map<string, RouteOutcome>();
  /** What the workers saw of the target's style (harness/profile/facts.ts), joined. */
  readonly #facts: ProfileFacts = emptyFacts();
  #lateTimeoutMs = 5_000;

  readonly #onOpened: ((session: RegisteredSession) => void) | undefined;

  /** `onOpened` learns of each session registered (the main process adds its token to the secrets it redacts). */
  constructor(budget: Limits, closer: SessionCloser, onOpened?: (session: RegisteredSession) => void) {
    this.#budget = budget;
    this.#closer = closer;
    this.#onOpened = onOpened;
  }

  /**
   * Counts one token- or session-creating request against the budget; refused past the limit or once stopped. A
   * request of a root check (`root`) may use the last {@link ROOT_RESERVE_TOKENS} tokens; others may not.
   */
  reserve(kind: 'token' | 'session', root = false): Reservation {
    if (this.#stopped) return { ok: false, reason: 'interrupted' };
    if (kind === 'token') {
      const kept = root ? 0 : Math.min(ROOT_RESERVE_TOKENS, Math.floor(this.#budget.tokens / 4));
      if (this.#tokens >= this.#budget.tokens - kept) return { ok: false, reason: 'budget', resource: 'tokens', limit: this.#budget.tokens };
      this.#tokens++;
      this.#tokenRequests++;
    } else {
      if (this.#sessions >= this.#budget.sessions) return { ok: false, reason: 'budget', resource: 'sessions', limit: this.#budget.sessions };
      this.#sessions++;
      this.#sessionRequests++;
    }
    return { ok: true };
  }

  /**
   * A reserved request created nothing (the service refused it): it no longer counts against the budget, which
   * bounds what a run takes from the environment, and refusals take nothing. It still counts as a request sent.
   */
  refund(kind: 'token' | 'session'): void {
    if (kind === 'token') this.#tokens = Math.max(0, this.#tokens - 1);
    else this.#sessions = Math.max(0, this.#sessions - 1);
  }

  /** What the run learnt of a route: kept for every worker (a route is asked about by its key). */
  learnRoute(key: string, outcome: RouteOutcome): void {
    if (this.#routes.size < 1_000) this.#routes.set(key, outcome);
  }

  route(key: string): RouteOutcome | undefined {
    return this.#routes.get(key);
  }

  /** A worker's facts of the target's style (at the end of each test file). */
  addFacts(facts: ProfileFacts): void {
    mergeFacts(this.#facts, facts);
  }

  facts(): ProfileFacts {
    return this.#facts;
  }

  /** A worker opened `session`. After {@link stop}, it is closed at once (a create that was in flight). */
  opened(session: RegisteredSession): void {
    if (this.#open.has(session.token)) return;
    this.#open.set(session.token, session);
    this.#opened++;
    this.#onOpened?.(session);
    if (this.#stopped) void this.#attempt(session, this.#lateTimeoutMs);
  }

  /** A worker's close of the session with this token was answered. */
  closed(token: string): void {
    if (this.#remove(token)) this.#closed++;
  }

  /** Takes a session off the open list and wakes whoever waits for it to go; false when it was not there. */
  #remove(token: string): boolean {
    if (!this.#open.delete(token)) return false;
    for (const wake of this.#gone.get(token) ?? []) wake();
    this.#gone.delete(token);
    return true;
  }

  /** Resolves when the session is no longer open (closed by a worker, or by any attempt). */
  #goneOf(token: string): Promise<void> {
    if (!this.#open.has(token)) return Promise.resolve();
    return new Promise((resolve) => this.#gone.set(token, [...(this.#gone.get(token) ?? []), resolve]));
  }

  /** No more tokens or sessions: every reservation from now on is refused; late registrations are closed at once. */
  stop(lateTimeoutMs = this.#lateTimeoutMs): void {
    this.#stopped = true;
    this.#lateTimeoutMs = lateTimeoutMs;
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  /** The sessions still open, as far as the registry knows. */
  openSessions(): readonly RegisteredSession[] {
    return [...this.#open.values()];
  }

  counts(): SessionCounts {
    return {
      tokens: this.#tokens, tokenRequests: this.#tokenRequests, sessionRequests: this.#sessionRequests,
      sessionsOpened: this.#opened, sessionsClosed: this.#closed, sessionsOpen: this.#open.size,
    };
  }

  /** Fault codes of closes the service refused, over the whole run. */
  refusedCloses(): readonly string[] {
    return [...this.#refused];
  }

  /**
   * Closes every session still open, all at once, within `timeoutMs`: an attempt each, and one more for a session
   * whose first attempt got no answer after `hedgeMs` (a request caught on a hung connection must not keep the session
   * open). An attempt already in flight does not stop a new one. A session is waited for until it is closed by any
   * attempt, a worker's included. Never throws.
   */
  async closeAll(timeoutMs: number, hedgeMs = Math.min(1_000, timeoutMs / 3)): Promise<CloseSummary> {
    const before = { closed: this.#closed, refused: this.#refused.length };
    await Promise.all(this.openSessions().map(async (s) => {
      let hedge: ReturnType<typeof setTimeout> | undefined;
      const second = new Promise<void>((resolve) => {
        hedge = setTimeout(() => {
          if (this.#open.has(s.token)) void this.#attempt(s, Math.max(1, timeoutMs - hedgeMs)).then(resolve);
        }, hedgeMs);
      });
      try {
        await Promise.race([this.#attempt(s, timeoutMs).then(() => (this.#open.has(s.token) ? second : undefined)), this.#goneOf(s.token)]);
      } finally {
        clearTimeout(hedge);
      }
    }));
    const refused = this.#refused.slice(before.refused);
    return { closed: this.#closed - before.closed - refused.length, refused, open: this.#open.size };
  }

  /**
   * Resolves when no session that is still open has a close attempt in flight (late registrations included), or after
   * `timeoutMs`. An attempt for a session closed otherwise is not waited for.
   */
  async settled(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const pending = [...this.#attempts].filter(([, token]) => this.#open.has(token));
      if (pending.length === 0 || Date.now() >= deadline) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.all(pending.map(([attempt, token]) => Promise.race([attempt, this.#goneOf(token)]))),
        new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now())))),
      ]);
      clearTimeout(timer);
    }
  }

  #attempt(session: RegisteredSession, timeoutMs: number): Promise<void> {
    const attempt = withDeadline(this.#closer(session, timeoutMs), timeoutMs).then(
      (answer) => {
        if (!this.#remove(session.token)) return; // closed meanwhile (by a worker or another attempt)
        // A refused close ends the run's hold on the session too (it was closed already, or expired): it is
        // counted as closed, as a check's close is whatever the answer, and its fault is kept.
        this.#closed++;
        if (answer.kind === 'refused') this.#refused.push(answer.fault);
      },
      () => undefined, // no answer in time: still open
    );
    this.#attempts.set(attempt, session.token);
    void attempt.finally(() => this.#attempts.delete(attempt));
    return attempt;
  }
}

/** `promise`, or a rejection once `ms` have passed (a closer that ignores its time limit must not hold a run up). */
function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))),
  ]).finally(() => clearTimeout(timer));
}
