import { jsonObject } from '../judges/token-answer.ts';
import { ROOT_RESERVE_TOKENS } from '../registry/registry.ts';
import type { Transport } from '../targets/index.ts';
import { creates } from '../targets/creates.ts';

export { creates };

/** How much a run may take from a live target. The simulator runs unbounded. */
export interface Budget {
  /** Token-creating requests (`POST /v2/auth/token`, `TokenCreateRQ`) the whole run may send. */
  readonly tokens: number;
  /** `SessionCreateRQ`s the whole run may send. */
  readonly sessions: number;
  /** Requests per second, at most. */
  readonly requestsPerSecond: number;
  /** Requests in flight at once, at most. */
  readonly concurrency: number;
}

/**
 * Defaults for a live target: small, so that a run is a careful guest in a shared test environment, and large enough
 * for every rule a run may select (a budget never decides a verdict). Measured on the simulator served as a live
 * target with every opt-in declared (a pool of 4, PROD, every `access` account, every API's token kinds): 90–98 tokens created and 36
 * sessions opened; the last 12 tokens are kept for the root checks (`ROOT_RESERVE_TOKENS`).
 */
export const LIVE_BUDGET: Budget = { tokens: 200, sessions: 70, requestsPerSecond: 5, concurrency: 2 };

/** The pool {@link LIVE_BUDGET}'s sessions cover, with every opt-in rule. */
export const BUDGET_POOL = 4;

/**
 * The default budget for a live target's config: {@link LIVE_BUDGET}, with 4 sessions more for each slot of a declared
 * pool beyond {@link BUDGET_POOL} when opt-in rules run (SESS-02's pool check, SESS-04 and STOK-01's sessionless
 * clause each fill the pool).
 */
export function liveBudget(config: { readonly sessionPoolSize?: number } | undefined, allowOptIn: boolean): Budget {
  const pool = config?.sessionPoolSize ?? 0;
  return allowOptIn && pool > BUDGET_POOL ? { ...LIVE_BUDGET, sessions: LIVE_BUDGET.sessions + 4 * (pool - BUDGET_POOL) } : LIVE_BUDGET;
}

/** The run's budget is spent: the check that needed more is `skipped`, with the reason and how to raise it. */
export class BudgetExhausted extends Error {
  readonly code = 'BUDGET_EXHAUSTED';
  constructor(readonly resource: 'tokens' | 'sessions', readonly limit: number) {
    super(`the run's budget of ${limit} ${resource === 'tokens' ? 'tokens' : 'sessions'} on the live target is spent: raise it with --max-${resource} if the environment allows`);
    this.name = 'BudgetExhausted';
  }
}

export interface BudgetState {
  tokens: number;
  sessions: number;
}

/** The run was interrupted: no token or session is created any more (the main process is closing what is open). */
export class RunInterrupted extends Error {
  readonly code = 'RUN_INTERRUPTED';
  constructor() {
    super('the run was interrupted: no new token or session is created while the harness closes the sessions it opened');
    this.name = 'RunInterrupted';
  }
}

/**
 * Where token- and session-creating requests are counted against the run's budget. Throws {@link BudgetExhausted}
 * past a limit (or {@link RunInterrupted}). A live run counts in the main process's session registry (one budget
 * across workers); {@link localLedger} counts in this process.
 */
export interface Ledger {
  /** `root`: a request of a root check, which may use the tokens kept for them (see `ROOT_RESERVE_TOKENS`). */
  reserve(kind: 'token' | 'session', root?: boolean): Promise<void>;
  /** A reserved request created nothing (refused): it no longer counts against the budget. Never throws. */
  refund(kind: 'token' | 'session'): Promise<void>;
}

/**
 * The rules whose checks every other check builds on: the configured account's credentials (CRED-03) and the
 * refusals of bad credentials (ERR-01..03). Their requests may use the last tokens of the budget, so that no order of
 * the test files leaves them without (a budget never decides a verdict).
 */
export const ROOT_RULES: readonly string[] = ['CRED-03', 'ERR-01', 'ERR-02', 'ERR-03'];
export const isRootCheck = (rules: readonly string[]): boolean => rules.some((r) => ROOT_RULES.includes(r));

/** A ledger in this process's memory. */
export function localLedger(budget: Pick<Budget, 'tokens' | 'sessions'>, used: BudgetState = { tokens: 0, sessions: 0 }): Ledger & { readonly used: BudgetState } {
  return {
    used,
    async reserve(kind, root = false) {
      if (kind === 'token') {
        const kept = root ? 0 : Math.min(ROOT_RESERVE_TOKENS, Math.floor(budget.tokens / 4));
        if (used.tokens >= budget.tokens - kept) throw new BudgetExhausted('tokens', budget.tokens);
        used.tokens++;
      } else {
        if (used.sessions >= budget.sessions) throw new BudgetExhausted('sessions', budget.sessions);
        used.sessions++;
      }
    },
    async refund(kind) {
      if (kind === 'token') used.tokens = Math.max(0, used.tokens - 1);
      else used.sessions = Math.max(0, used.sessions - 1);
    },
  };
}

/**
 * Whether an answer to a token- or session-creating request created something: a 2xx REST answer with an
 * `access_token`, or a SOAP answer without a fault that carries a BinarySecurityToken.
 */
export function createdBy(kind: 'token' | 'session', res: { readonly status: number; readonly body: string }, soap: boolean): boolean {
  if (!soap) {
    const token = jsonObject(res.body)?.access_token;
    return kind === 'token' && res.status >= 200 && res.status < 300 && typeof token === 'string' && token !== '';
  }
  return !/<(?:[\w.-]+:)?Fault[\s>]/.test(res.body) && /BinarySecurityToken[^>]*>\s*[^<\s]/.test(res.body);
}

/**
 * A transport that keeps a run within its budget: counts token- and session-creating requests in `ledger` (the one
 * past the limit is refused before it is sent), spaces requests to the rate, and bounds requests in flight.
 */
export function budgetedTransport(inner: Transport, budget: Budget, ledger: Ledger = localLedger(budget), isRoot: () => boolean = () => false): Transport {
  const interval = 1000 / budget.requestsPerSecond;
  let nextSlot = 0;
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const acquire = async () => {
    if (inFlight >= budget.concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    inFlight++;
    const now = Date.now();
    const at = Math.max(now, nextSlot);
    nextSlot = at + interval;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  };
  const release = () => {
    inFlight--;
    waiting.shift()?.();
  };
  return {
    async request(req) {
      const kind = creates(req);
      if (kind) await ledger.reserve(kind, isRoot());
      await acquire();
      let created = false;
      try {
        const res = await inner.request(req);
        created = kind !== undefined && createdBy(kind, res, !/\/v2\/auth\/token\/?$/.test(new URL(req.url).pathname));
        return res;
      } finally {
        release();
        // A refused request (or one that got no answer) created nothing: it does not count against the budget.
        if (kind && !created) await ledger.refund(kind);
      }
    },
    close: () => inner.close(),
  };
}
