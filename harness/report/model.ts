/**
 * The types of `report.json`: the result of one conformance run, every verdict tied to a rule ID.
 * Users' CI scripts read this file; fields may be added, never renamed or removed.
 * @see ../../../shared/design/ARCHITECTURE.md "report.json"
 */
import type { LearnedProfile } from '../profile/types.ts';
import type { AreaId, Level, RuleId, Side, Where } from '../catalog/index.ts';
import type { CheckFailureDetail, CheckMeta, CheckThrottle, CheckTrace } from './meta.ts';

/** The version of the `report.json` format; raised when a field changes meaning. */
export const REPORT_SCHEMA_VERSION = 1;

/** Every status a rule (and a check) can have, in the order reports list them. */
export const STATUSES = ['pass', 'partial', 'fail', 'warn', 'info', 'skipped', 'not-applicable', 'error'] as const;

/**
 * - `pass`: the check held, and (for a rule) every clause of the rule was checked.
 * - `partial` (rules only): every check that ran held, but a clause of the rule could not be exercised on this
 *   target (the clause list says which and why). Not a failure: the exit code is that of `pass`.
 * - `fail`: a MUST was violated. `warn`: a SHOULD was violated.
 * - `info`: an INFO rule; the observed value is recorded, never a failure.
 * - `skipped`: not run (not selected, not covered yet, an `opt-in` rule without `--allow-opt-in`, a missing prerequisite).
 *   A rule the run did not select is `skipped` with `notSelected: true` and the reason `not selected`; the summary
 *   counts it apart (`summary.notSelected`), not with the rules skipped for a reason (`summary.skipped`).
 * - `not-applicable`: a `sim` rule on a target without the control it needs.
 * - `error`: the check could not be carried out (target unreachable, timeout, harness failure). Not a failure.
 */
export type Status = (typeof STATUSES)[number];
export type RuleStatus = Status;
export type CheckStatus = Status;

/** Exit codes of `tds-conformance run`. `usage` (2) is the CLI's own; a report never carries it. */
export const EXIT_CODES = { ok: 0, mustFailed: 1, usage: 2, unreachable: 3 } as const;
/** The exit code a report asks for: 0 ok, 1 a MUST rule failed (or something errored), 3 the target was unreachable. */
export type ReportExitCode = typeof EXIT_CODES.ok | typeof EXIT_CODES.mustFailed | typeof EXIT_CODES.unreachable;

/** What the reporter hands `buildReport` for one conformance test, whatever runner produced it. */
export interface TestRecord {
  /** The test's title; it starts with the rule IDs it verifies (`REST-03, REST-05: …`). */
  readonly title: string;
  /** The test file, relative to the project root. */
  readonly file: string;
  readonly state: 'passed' | 'failed' | 'skipped' | 'pending';
  readonly errors: readonly TestRecordError[];
  /** `task.meta.tds`, attached by the check in the test worker. */
  readonly meta?: CheckMeta | undefined;
  readonly durationMs: number;
  /** The note given to `ctx.skip(note)`. */
  readonly note?: string | undefined;
}

export interface TestRecordError {
  readonly message: string;
  readonly stack?: string | undefined;
  /** The error's (or its cause's) `code`, such as `ECONNREFUSED`. */
  readonly code?: string | undefined;
  /** From an assertion error. */
  readonly expected?: string | undefined;
  readonly actual?: string | undefined;
}

interface CheckBase {
  /** The test title. */
  readonly name: string;
  /** The test file, relative to the project root. */
  readonly file?: string;
  readonly durationMs?: number;
  /**
   * The requests the check sent: how many, and the last ones with their correlation IDs and times (hand them to the
   * service's team). Absent when the check sent none.
   */
  readonly requests?: CheckTrace;
}

export interface PassedCheck extends CheckBase {
  readonly status: 'pass';
}

/** The clause coverage of one check (see `ClauseCoverage` in meta.ts). */
export interface CheckClauses {
  /** The clauses the check exercises (`<rule ID>.<slug>`). */
  readonly clauses?: readonly string[];
  /** Declared clauses it could not exercise on this target, with the reason. */
  readonly unchecked?: readonly { readonly id: string; readonly reason: string }[];
}

/** A violated rule: `fail` for a MUST rule, `warn` for a SHOULD rule. Everything needed to reproduce it. */
export interface FailedCheck extends CheckBase, CheckFailureDetail {
  readonly status: 'fail' | 'warn';
}

/** An INFO rule's observation. `message` says what was observed (or why nothing was). */
export interface InfoCheck extends CheckBase {
  readonly status: 'info';
  readonly message: string;
  readonly observed?: string;
  readonly publiclySeen?: string;
  readonly matchesPublic?: boolean;
}

/** A check that did not run; `message` is the reason. */
export interface NotRunCheck extends CheckBase {
  readonly status: 'skipped' | 'not-applicable';
  readonly message: string;
  /**
   * A missing prerequisite: the rules whose checks judge it, and the first of them that failed (or errored) in this
   * run, when one did.
   */
  readonly prerequisite?: { readonly rules: readonly RuleId[]; readonly failedFirst?: RuleId };
}

/** A check that could not be carried out; `code` says why (`ECONNREFUSED`, `TARGET_UNREACHABLE`, …). */
export interface ErroredCheck extends CheckBase {
  readonly status: 'error';
  readonly code: string;
  readonly message: string;
  /** What was sent and received before the error, redacted. */
  readonly evidence?: readonly string[];
}

export type CheckResult = (PassedCheck | FailedCheck | InfoCheck | NotRunCheck | ErroredCheck) & CheckClauses;

/**
 * One clause of a rule in a run: `checked` (a check that exercises it held), `failed` (a check that exercises it
 * failed or warned), `unchecked` (no check exercised it on this target; `reason` says why).
 */
export interface ClauseResult {
  readonly id: string;
  readonly text: string;
  readonly status: 'checked' | 'failed' | 'unchecked';
  readonly reason?: string;
}

export interface RuleResult {
  readonly id: RuleId;
  readonly side: Side;
  readonly level: Level;
  readonly where: Where;
  readonly area: AreaId;
  readonly statement: string;
  /** The sentence (or table row) of the interface document the rule rests on, and its section (absent in older reports). */
  readonly source?: { readonly section: string; readonly quote: string };
  readonly status: RuleStatus;
  /** Why the rule is `skipped`, `not-applicable` or `error`. */
  readonly reason?: string;
  /**
   * `true` when the run did not select the rule (its status is then `skipped`, its reason `not selected`, and it has
   * no checks): counted in `summary.notSelected`, not `summary.skipped`. Absent on selected rules.
   */
  readonly notSelected?: true;
  /**
   * `true` when the rule failed (or warned) as the run's baseline (`--baseline`) expects: it does not fail the run.
   * Absent otherwise.
   */
  readonly knownFailure?: true;
  /** `true` when the rule failed (or warned) and the baseline lists it as known-flaky: it does not fail the run. */
  readonly knownFlaky?: true;
  /**
   * `true` when the rule ended `skipped`, `not-applicable` or `partial` and the baseline lists it as an expected skip
   * (the certification gate accepts it).
   */
  readonly expectedSkip?: true;
  /** The rule's clauses and whether this run checked each (selected rules that ran a check). */
  readonly clauses?: readonly ClauseResult[];
  readonly checks: readonly CheckResult[];
}

/**
 * Rule counts by status. `skipped` counts the selected rules that were skipped (for the reason each gives);
 * `notSelected` the rules the run did not select (status `skipped`, `notSelected: true`). Every rule of the report is
 * counted once: the counts add up to the number of rules.
 */
export interface Summary {
  readonly pass: number;
  readonly partial: number;
  readonly fail: number;
  readonly warn: number;
  readonly info: number;
  readonly skipped: number;
  readonly notApplicable: number;
  readonly error: number;
  /** Rules the run did not select (absent from reports written before this count existed). */
  readonly notSelected: number;
}

/** The reason a rule the run did not select carries. */
export const NOT_SELECTED_REASON = 'not selected';

/**
 * Whether the run did not select the rule: `notSelected: true`, or (in a report written before that marker existed)
 * `skipped` with the reason `not selected` and no checks.
 */
export function isNotSelected(rule: { readonly status: string; readonly reason?: string | undefined; readonly notSelected?: true | undefined; readonly checks?: readonly unknown[] | undefined }): boolean {
  return rule.notSelected === true || (rule.status === 'skipped' && rule.reason === NOT_SELECTED_REASON && (rule.checks?.length ?? 0) === 0);
}

/** What the run created on the target, summed from the checks' `meta.resources`. */
export interface Resources {
  readonly tokens: number;
  readonly sessionsOpened: number;
  readonly sessionsClosed: number;
  /** Token-creating requests a live run sent (refused ones included; the budget counts what they created). */
  readonly tokenRequests?: number;
  /** `SessionCreateRQ`s a live run sent (refused ones included). */
  readonly sessionRequests?: number;
}

/**
 * Throttling the run met (429, 503, busy faults), summed over its checks: waited out by the transport, never judged.
 * Present when the run met any, and always for a live target. `endIntervalMs`: the pause between requests the run's
 * pace had reached when its last check ended, in ms (0: not slowed).
 */
export interface Throttling extends Omit<CheckThrottle, 'intervalMs'> {
  readonly endIntervalMs: number;
}

/** A conformance test whose title names no catalog rule. */
export interface UnmappedTest {
  readonly name: string;
  readonly file: string;
  readonly state: TestRecord['state'];
}

/** Something that went wrong outside any check: a test file that did not load, an unhandled error, an interruption. */
export interface RunError {
  readonly code: string;
  readonly message: string;
}

export interface ReportTarget {
  readonly name: string;
  readonly kind: 'sim' | 'live';
}

/**
 * `complete`: the run ended. `interrupted`: the run was stopped (Ctrl-C, a bail). `partial`: written while the run
 * was still going (`flush()`), for instance because the process is going down.
 */
export type Completion = 'complete' | 'interrupted' | 'partial';

/** How a known-failures baseline (`--baseline known.json`) changed the verdict of a run. */
export interface BaselineSummary {
  /** The baseline file, as given on the command line. */
  readonly file: string;
  /** Listed rules that failed (or warned) as listed: they do not fail the run. */
  readonly knownFailures: readonly RuleId[];
  /** Listed rules with a listed check (or the rule itself) that passed: each fails the run until it is removed. */
  readonly unexpectedPasses: readonly RuleId[];
  /** Listed rules this run could not judge: not selected, skipped, not applicable or errored. */
  readonly notJudged: readonly RuleId[];
  /** What fails the run because of the baseline, one sentence each, saying what to do. */
  readonly messages: readonly string[];
  /** The exit code the run would have without the baseline. */
  readonly exitCodeWithout: ReportExitCode;
  /** The baseline's known-flaky entries and how each rule ended in this run (`failed`: it failed and was excused). */
  readonly knownFlaky?: readonly { readonly rule: RuleId; readonly status: Status; readonly failed: boolean; readonly reason?: string }[];
}

/**
 * The certification gate (`run --require-checked`, or a baseline's `requireChecked`): every selected rule must be
 * checked. A rule that ended `skipped`, `not-applicable` or `partial` fails the run, unless the baseline lists it
 * as an expected skip.
 */
export interface GateSummary {
  /** Selected rules that were not fully checked and are not expected skips: each fails the run. */
  readonly unchecked: readonly { readonly rule: RuleId; readonly status: Status; readonly reason: string }[];
  /** Selected rules not fully checked, as the baseline expects (with its reason). */
  readonly expectedSkips: readonly { readonly rule: RuleId; readonly status: Status; readonly reason: string }[];
  /** Expected skips that were checked after all (a note: the baseline can lose them). */
  readonly checkedAnyway: readonly RuleId[];
  /** What fails the run, one sentence each, saying what to do. */
  readonly messages: readonly string[];
}

/** One entry of a baseline: a rule, or some of its checks, expected to fail. */
export interface KnownFailure {
  readonly rule: RuleId;
  /** Full titles of the rule's checks that are expected to fail; the whole rule when absent. */
  readonly checks?: readonly string[];
  /** Why it is known to fail (a ticket, a note). Kept by `--update-baseline`. */
  readonly reason?: string;
}

/** A rule (or some of its checks) that may pass or fail from one run to the next. */
export interface KnownFlaky {
  readonly rule: RuleId;
  /** Full titles of the rule's checks that may flip; the whole rule when absent. */
  readonly checks?: readonly string[];
  readonly reason?: string;
}

/** A rule the target cannot check, and why: the certification gate accepts it unchecked. */
export interface ExpectedSkip {
  readonly rule: RuleId;
  readonly reason: string;
}

/** A baseline file's content (harness/report/baseline.ts reads and checks it). */
export interface Baseline {
  readonly knownFailures: readonly KnownFailure[];
  /** Absent: none. */
  readonly knownFlaky?: readonly KnownFlaky[];
  /** Absent: none. */
  readonly expectedSkips?: readonly ExpectedSkip[];
  /** The certification gate is on for every run with this baseline (as `--require-checked`). */
  readonly requireChecked?: boolean;
}

/** Shard `index` (1-based) of `count`: the part of the suites' files a run ran (`run --shard i/n`). */
export interface ShardPart {
  readonly index: number;
  readonly count: number;
}

/** The certification gate a shard run asked for, for `merge` to apply (see {@link Report.deferredGate}). */
export interface DeferredGate {
  /** The baseline's expected skips (rule and reason), which the gate accepts. */
  readonly expectedSkips: readonly ExpectedSkip[];
  /** The baseline file they come from, for the gate's messages. */
  readonly baselineFile?: string;
}

/** The run's correlation: its ID, the header its requests carried, and the HAR files of its traffic. */
export interface Correlation {
  /** Every request's correlation ID starts with it (`<run>-<check>-<n>`). */
  readonly runId: string;
  /** The header's name; `null` when the run sent none (`--no-correlation-header`). */
  readonly header: string | null;
  /**
   * The HAR files of the run's traffic (`--har`, `--report-har`), relative to the report's directory (`traffic.har`),
   * so that a report moved with its files, or handed on, names no path of the machine that wrote it.
   */
  readonly har?: readonly string[];
}

export interface Report {
  readonly schemaVersion: typeof REPORT_SCHEMA_VERSION;
  readonly tool: { readonly name: string; readonly version: string };
  readonly target: ReportTarget;
  /** ISO 8601. */
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly seed: number;
  /** Generated cases per property. */
  readonly runs: number;
  readonly completion: Completion;
  readonly exitCode: ReportExitCode;
  /** The selected rule IDs, in catalog order. */
  readonly selection: readonly RuleId[];
  readonly summary: Summary;
  readonly resources: Resources;
  /** Throttling met and waited out (see {@link Throttling}). */
  readonly throttling?: Throttling;
  /** Every rule of the catalog, once, in catalog order. */
  readonly rules: readonly RuleResult[];
  readonly unmapped: readonly UnmappedTest[];
  readonly runErrors: readonly RunError[];
  /** Present when the run was given a known-failures baseline; `exitCode` then already takes it into account. */
  readonly baseline?: BaselineSummary;
  /** Present when the run had the certification gate on; `exitCode` then already takes it into account. */
  readonly gate?: GateSummary;
  /**
   * The part of the suites' files the run ran (`run --shard i/n`), when it ran a part: `tds-conformance merge` joins
   * the shards of one run.
   */
  readonly shard?: ShardPart;
  /**
   * A shard run with the certification gate on does not apply it (a rule's checks may be in another shard): it
   * records it here, with the baseline's expected skips, and `tds-conformance merge` applies it to the merged report.
   */
  readonly deferredGate?: DeferredGate;
  /**
   * The baseline a shard run was given (`run --shard … --baseline`), for `tds-conformance merge` to apply again to the
   * merged report: whether a listed rule failed, or passed, is known only from every shard's checks.
   */
  readonly deferredBaseline?: { readonly file: string; readonly baseline: Baseline };
  /** The run's ID and correlation header (runs of this version of the tool). */
  readonly correlation?: Correlation;
  /** What a live target showed of itself within the document's freedoms (also written as profile.json). */
  readonly profile?: LearnedProfile;
}
