/**
 * What a conformance test hands the reporter besides pass/fail: the contract between `harness/checks` (in the test
 * workers) and `harness/report` (in the main process). Carried in Vitest's `task.meta.tds`; everything in it has
 * been redacted in the worker before it is attached.
 */

// Loads vitest's types before the augmentation below: without it the augmentation can be lost depending on the order
// in which the compiler meets the files (seen with TypeScript 7).
import type {} from 'vitest';

/** Why a check did not pass or fail. */
export type CheckOutcome =
  /** A `sim` rule on a target without the control it needs. */
  | { readonly kind: 'not-applicable'; readonly reason: string }
  /**
   * An `opt-in` rule on a live target without `--allow-opt-in`, or a prerequisite that is missing. `after`: the rules
   * whose checks judge the missing prerequisite (the report names the one that failed first in the run).
   */
  | { readonly kind: 'skipped'; readonly reason: string; readonly after?: readonly string[] }
  /** An INFO rule: what was observed, and what the real service is publicly seen to do. */
  | { readonly kind: 'info'; readonly observed: string; readonly publiclySeen?: string; readonly matchesPublic: boolean }
  /** The check could not be carried out: the target was unreachable, timed out, or the harness failed. */
  | { readonly kind: 'error'; readonly code: string; readonly message: string };

/** Why a check failed, made for reproduction. */
export interface CheckFailureDetail {
  readonly message: string;
  readonly code?: string;
  readonly expected?: string;
  readonly actual?: string;
  /** The shrunk input of a property, or the shrunk command sequence of a model-based test. */
  readonly counterexample?: string;
  readonly seed?: number;
  readonly path?: string;
  /** A command line that re-runs just this check with the same seed and path. */
  readonly replay?: string;
  /**
   * The clause the failure breaks, where the check knew it (a judge's problem): only that clause of the check is
   * `failed`; the check's other clauses were not verified past it. Absent: every clause the check exercises.
   */
  readonly clause?: string;
  /** Excerpts of what was sent and received (HTTP exchanges, envelope excerpts), redacted. */
  readonly evidence?: readonly string[];
}

/** A clause the check could not exercise on this target, and why. */
export interface UncheckedClause {
  readonly id: string;
  readonly reason: string;
}

/** The clauses (`<rule ID>.<slug>`) a check exercises, less those it could not exercise on this target. */
export interface ClauseCoverage {
  readonly declared: readonly string[];
  readonly unchecked: readonly UncheckedClause[];
}

/** One request a check sent, as the report lists it: find it in the service's logs by its correlation ID. */
export interface TracedRequest {
  /** The correlation ID the request carried (`<run>-<check>-<n>`; see harness/checks/trace.ts). */
  readonly id: string;
  /** When it was sent (ISO 8601). */
  readonly at: string;
  readonly method: string;
  /** Path and query of the URL. */
  readonly path: string;
  readonly status?: number;
  readonly durationMs?: number;
  /** Why no answer came. */
  readonly error?: string;
}

/** The requests behind a check's verdict. */
export interface CheckTrace {
  /** The check's ID in correlation IDs: every request of the check has an ID starting `<run>-<checkId>-`. */
  readonly checkId: string;
  /** How many requests the check sent (their IDs end in 1 … count). */
  readonly count: number;
  readonly firstAt?: string;
  readonly lastAt?: string;
  /** The last requests before the verdict (those a failure's evidence quotes), with their IDs and times; at most 8. */
  readonly requests: readonly TracedRequest[];
}

export interface CheckMeta {
  readonly outcome?: CheckOutcome;
  /** The requests the check sent (absent when it sent none, or for checks that drive a client). */
  readonly trace?: CheckTrace;
  /** Absent only for checks not written with the harness's `ruleTest`/`clientTest` family. */
  readonly clauses?: ClauseCoverage;
  readonly failure?: CheckFailureDetail;
  /** Counts a live run must report: tokens and sessions the check created and closed. */
  readonly resources?: { readonly tokens: number; readonly sessionsOpened: number; readonly sessionsClosed: number };
  /** Throttled answers the transport waited out during the check (absent when there were none). */
  readonly throttle?: CheckThrottle;
  /** The check judges what the other checks of its file exchanged: its replay re-runs them all (see fileReplayCommand). */
  readonly replayFile?: true;
}

/** What the transport met of throttling during one check (see harness/targets/throttle.ts). */
export interface CheckThrottle {
  /** Throttled answers (429, 503, busy faults), every attempt counted. */
  readonly throttled: number;
  /** Time spent waiting them out, in ms. */
  readonly waitedMs: number;
  /** Throttled answers by status (`429`, `503`, `busy`). */
  readonly statuses: Readonly<Record<string, number>>;
  /** `Retry-After` values seen. */
  readonly retryAfter: readonly string[];
  /** The pause the adaptive pace put between requests when the check ended, in ms. */
  readonly intervalMs: number;
  /** Requests given up as `RATE_LIMITED`. */
  readonly gaveUp: number;
  /** Gateway errors (502, 504) answered to a request that was then sent again, by status; absent when none. */
  readonly gatewayResent?: Readonly<Record<string, number>>;
}

declare module 'vitest' {
  interface TaskMeta {
    tds?: CheckMeta;
    /** On a suite file: the simulator defects its target asked about (`all`: it read them otherwise). */
    tdsDefects?: readonly string[] | 'all';
    /** On a suite file: the deliberate faults its checks' clients asked about (`all`: a client could not say). */
    tdsFaults?: readonly string[] | 'all';
  }
}
