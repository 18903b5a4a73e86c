/**
 * From test results to a report: a pure function of the records the reporter collected and the run's options.
 * No I/O, no clock: the caller supplies the times.
 */
import { isRuleId, notYetCovered, prerequisitesOf, ruleIdsInTitle, rules as catalog } from '../catalog/index.ts';
import type { Rule, RuleId } from '../catalog/index.ts';
import { UnknownRuleError } from './errors.ts';
import type { CheckMeta } from './meta.ts';
import { EXIT_CODES, isNotSelected, NOT_SELECTED_REASON, REPORT_SCHEMA_VERSION } from './model.ts';
import { fileReplayCommand, replayCommand, withContext } from './replay.ts';
import type {
  CheckResult,
  Correlation, ClauseResult, Completion, ErroredCheck, NotRunCheck, Report, ReportExitCode, ReportTarget, Resources, RuleResult, RuleStatus, RunError, ShardPart, Summary,
  TestRecord, Throttling, UnmappedTest,
} from './model.ts';

export const TOOL_NAME = 'tds-auth-conformance';

/**
 * Error codes that mean the target could not be reached at all (exit code 3), as opposed to other errors (exit 1).
 * A check reports them as `outcome: { kind: 'error', code }`; Node's and undici's connection codes are recognized
 * on a failed test's errors too.
 */
export const UNREACHABLE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'TARGET_UNREACHABLE',
]);

/** Why a selected rule has no check in a shard's report: its checks are in the files of the other shards. */
export function shardSkipReason(shard: ShardPart): string {
  return `${SHARD_SKIP_PREFIX} (--shard ${shard.index}/${shard.count}): its checks are in the files of the other shards`;
}

/** The start of {@link shardSkipReason}'s reasons, whatever the shard. */
export const SHARD_SKIP_PREFIX = 'no check of it ran in this shard';

export interface BuildOptions {
  readonly toolVersion: string;
  readonly target: ReportTarget;
  readonly seed: number;
  readonly runs: number;
  /** The selected rule IDs; every rule of the catalog when left out. */
  readonly selection?: readonly RuleId[] | undefined;
  /** ISO 8601. */
  readonly startedAt: string;
  readonly finishedAt: string;
  /** `complete` unless told otherwise. */
  readonly completion?: Completion | undefined;
  /** Errors outside any test: files that did not load, unhandled errors. */
  readonly runErrors?: readonly RunError[] | undefined;
  readonly unreachableCodes?: ReadonlySet<string> | undefined;
  /**
   * The command-line arguments that put a replay command in this run's context (`--target`, `--defect`, …; see
   * `withContext` in `replay.ts`). When given, every failed or warned check gets a replay command that re-runs just
   * it: a property's own (seed and path) with these appended, or `--replay '<title>'` for a check without one.
   */
  readonly replayContext?: readonly string[] | undefined;
  /**
   * The part of the suites' files the run ran (`--shard i/n`), which the report records: a selected rule none of whose
   * checks ran is then said to have them in the other shards, not to have none.
   */
  readonly shard?: ShardPart | undefined;
  /** Rules waiting for the issue that will cover them; the spec's `notYetCovered` unless told otherwise. */
  readonly notYetCovered?: Readonly<Partial<Record<RuleId, string>>> | undefined;
  /**
   * Counts known better than the checks' own (a live run's session registry also sees the sessions of checks that
   * never finished, and the closes of the main process); they replace the sums of `meta.resources`.
   */
  readonly resources?: Partial<Resources> | undefined;
  /** The run's correlation (ID, header, HAR files). */
  readonly correlation?: Correlation | undefined;
}

/**
 * The report of a run.
 *
 * Every catalog rule appears exactly once in `rules`, in catalog order. A rule that was not selected is `skipped`
 * with the reason `not selected` and `notSelected: true` (its tests, if any ran, are left out); the summary counts it
 * in `notSelected`, apart from the rules skipped for a reason. A selected rule no test names is `skipped`
 * with the reason from `notYetCovered`, or `no check verifies this rule yet`. Otherwise the rule's status follows
 * from its checks (see {@link checkResult} and {@link ruleStatus}). Tests whose title names no catalog rule are listed
 * in `unmapped`; a failed one is also a run error. The exit code follows {@link exitCodeFor}.
 *
 * @throws {UnknownRuleError} when the selection names a rule the catalog does not have.
 */
export function buildReport(records: readonly TestRecord[], options: BuildOptions): Report {
  const codes = options.unreachableCodes ?? UNREACHABLE_CODES;
  const selected = selectedIds(options.selection);
  const completion = options.completion ?? 'complete';

  const byRule = new Map<RuleId, TestRecord[]>();
  const unmapped: UnmappedTest[] = [];
  for (const record of sortByFile(records)) {
    const ids = [...new Set(ruleIdsInTitle(record.title))];
    if (ids.length === 0) unmapped.push({ name: record.title, file: record.file, state: record.state });
    for (const id of ids) byRule.set(id, [...(byRule.get(id) ?? []), record]);
  }

  const rules = catalog.map((rule): RuleResult => {
    const base = {
      id: rule.id, side: rule.side, level: rule.level, where: rule.where, area: rule.area, statement: rule.statement,
      source: { section: rule.source.section, quote: rule.source.quote },
    };
    if (!selected.has(rule.id)) return { ...base, status: 'skipped', reason: NOT_SELECTED_REASON, notSelected: true, checks: [] };
    const ruleRecords = byRule.get(rule.id) ?? [];
    if (ruleRecords.length === 0) {
      const pending = (options.notYetCovered ?? notYetCovered)[rule.id];
      const reason = pending !== undefined ? `not covered yet: ${pending}`
        : options.shard !== undefined ? shardSkipReason(options.shard) : 'no check verifies this rule yet';
      return { ...base, status: 'skipped', reason, checks: [] };
    }
    const checks = ruleRecords.map((record) => completeReplay(withFileReplay(checkResult(record, rule, codes), record, records, options.seed), options));
    const clauses = clauseResults(rule, checks);
    return { ...base, ...withClauses(ruleStatus(checks), clauses), clauses, checks };
  });
  const withPrerequisites = rules.map((r) => nameFailedPrerequisites(r, rules));

  const runErrors: RunError[] = [...(options.runErrors ?? [])];
  for (const test of unmapped) {
    if (test.state !== 'failed') continue;
    runErrors.push({
      code: 'UNMAPPED_TEST_FAILED',
      message: `the test "${test.name}" in ${test.file} failed but its title names no rule; titles start with rule IDs such as "REST-03: …"`,
    });
  }
  if (completion === 'interrupted') {
    runErrors.push({ code: 'INTERRUPTED', message: 'the run was interrupted before every check finished' });
  } else if (completion === 'partial') {
    runErrors.push({ code: 'INCOMPLETE', message: 'the report was written before the run ended; unfinished checks are missing' });
  }

  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: TOOL_NAME, version: options.toolVersion },
    target: { name: options.target.name, kind: options.target.kind },
    startedAt: options.startedAt,
    finishedAt: options.finishedAt,
    seed: options.seed,
    runs: options.runs,
    completion,
    exitCode: exitCodeFor(withPrerequisites, runErrors, codes),
    selection: catalog.map((r) => r.id).filter((id) => selected.has(id)),
    summary: summarize(withPrerequisites),
    resources: { ...sumResources(records), ...options.resources },
    ...throttlingOf(records, options.target.kind === 'live'),
    rules: withPrerequisites,
    unmapped,
    runErrors,
    ...(options.correlation && { correlation: options.correlation }),
    ...(options.shard && { shard: { index: options.shard.index, count: options.shard.count } }),
  };
}

/**
 * The status of one test as a check of one rule (a test naming several rules is one check of each).
 *
 * 1. `meta.outcome` of kind `error` → `error`, whatever Vitest says (Vitest marks such a test failed).
 * 2. A failed test → `fail` for a MUST rule, `warn` for a SHOULD rule, `info` for an INFO rule (INFO never fails;
 *    the message records the observation, or the failure that prevented one). A failed test without
 *    `meta.tds.failure` whose error carries an unreachable code (see {@link UNREACHABLE_CODES}) → `error`.
 * 3. A skipped test → `not-applicable` when `meta.outcome` says so, else `skipped`; the reason from the outcome, the
 *    skip note, or `skipped`.
 * 4. A test still pending (the run ended before it) → `skipped`, `did not finish`.
 * 5. A passed test → `not-applicable`/`skipped` when `meta.outcome` says so; `info` for an INFO rule (the observed
 *    value in the message); otherwise `pass`.
 */
export function checkResult(record: TestRecord, rule: Rule, unreachableCodes: ReadonlySet<string> = UNREACHABLE_CODES): CheckResult {
  const coverage = record.meta?.clauses;
  const own = (id: string) => id.startsWith(`${rule.id}.`);
  const base = {
    name: record.title,
    file: record.file,
    durationMs: record.durationMs,
    ...(record.meta?.trace && { requests: record.meta.trace }),
    ...(coverage && { clauses: coverage.declared.filter(own) }),
    ...(coverage && coverage.unchecked.some((u) => own(u.id)) && { unchecked: coverage.unchecked.filter((u) => own(u.id)) }),
  };
  const outcome = record.meta?.outcome;
  if (outcome?.kind === 'error') {
    const evidence = record.meta?.failure?.evidence;
    return { ...base, status: 'error', code: outcome.code, message: outcome.message, ...compact({ evidence }) };
  }

  switch (record.state) {
    case 'failed': {
      const failure = record.meta?.failure;
      const first = record.errors[0];
      const unreachable = failure ? undefined : record.errors.find((e) => e.code !== undefined && unreachableCodes.has(e.code));
      if (unreachable?.code !== undefined) return { ...base, status: 'error', code: unreachable.code, message: unreachable.message };
      // The check ran out of its time (Vitest's test timeout) before it judged anything: a slow or throttling target,
      // not evidence against a rule.
      const timedOut = failure ? undefined : record.errors.map((e) => /^Test timed out in (\d+)ms/.exec(e.message)).find((m) => m !== null);
      if (timedOut) {
        return {
          ...base, status: 'error', code: 'CHECK_TIMEOUT',
          message: `the check ran out of time (${Math.round(Number(timedOut[1]) / 1000)} s) before it could judge: the target answered slowly or kept throttling (a smaller --throttle-wait makes a throttled request end RATE_LIMITED sooner; --timeout limits each request)`,
        };
      }
      const more = record.errors.length > 1 ? ` (and ${record.errors.length - 1} more errors)` : '';
      const message = (failure?.message ?? first?.message ?? 'the test failed without a message') + (failure ? '' : more);
      if (rule.level === 'INFO') {
        return outcome?.kind === 'info'
          ? { ...base, ...infoFields(outcome) }
          : { ...base, status: 'info', message: `nothing observed: ${message}` };
      }
      return {
        ...base,
        status: rule.level === 'MUST' ? 'fail' : 'warn',
        message,
        ...compact({
          code: failure?.code,
          expected: failure?.expected ?? first?.expected,
          actual: failure?.actual ?? first?.actual,
          counterexample: failure?.counterexample,
          seed: failure?.seed,
          path: failure?.path,
          replay: failure?.replay,
          clause: failure?.clause && (record.meta?.clauses?.declared ?? []).includes(failure.clause) ? failure.clause : undefined,
          evidence: failure?.evidence,
        }),
      };
    }
    case 'skipped': {
      if (outcome?.kind === 'not-applicable') return { ...base, status: 'not-applicable', message: outcome.reason };
      const reason = outcome?.kind === 'skipped' ? outcome.reason : (record.note ?? 'skipped');
      const after = outcome?.kind === 'skipped' ? (outcome.after ?? []).filter(isRuleId) : [];
      return { ...base, status: 'skipped', message: reason, ...(after.length > 0 && { prerequisite: { rules: after } }) };
    }
    case 'pending':
      return { ...base, status: 'skipped', message: 'did not finish' };
    case 'passed': {
      if (outcome?.kind === 'not-applicable' || outcome?.kind === 'skipped') {
        return { ...base, status: outcome.kind, message: outcome.reason };
      }
      if (rule.level === 'INFO') {
        return outcome?.kind === 'info'
          ? { ...base, ...infoFields(outcome) }
          : { ...base, status: 'info', message: 'passed; the check recorded no observation' };
      }
      return { ...base, status: 'pass' };
    }
  }
}

/**
 * The clauses of a rule in a run, from the coverage its checks declare (see {@link ClauseResult}). A check without
 * coverage data (not written with the harness's check functions) counts as exercising every clause it ran.
 */
export function clauseResults(rule: Rule, checks: readonly CheckResult[]): ClauseResult[] {
  return rule.clauses.map((clause): ClauseResult => {
    const covering = checks.filter((c) => c.clauses === undefined || c.clauses.includes(clause.id));
    const uncheckedHere = (c: CheckResult) => c.unchecked?.find((u) => u.id === clause.id);
    // A failure that names its clause fails that one only; one that does not, every clause its check exercises.
    const failedHere = (c: CheckResult) => (c.status === 'fail' || c.status === 'warn') && (c.clause === undefined || c.clause === clause.id);
    if (covering.some(failedHere)) return { id: clause.id, text: clause.text, status: 'failed' };
    if (covering.some((c) => (c.status === 'pass' || c.status === 'info') && !uncheckedHere(c))) return { id: clause.id, text: clause.text, status: 'checked' };
    const why = covering.map((c) => uncheckedHere(c)?.reason ?? (c.status === 'pass' || c.status === 'info' ? undefined
      : (c.status === 'fail' || c.status === 'warn') && c.clause !== undefined ? `not verified: the check stopped at its failure of ${c.clause}` : `${c.status}: ${c.message}`)).find((r) => r !== undefined);
    return { id: clause.id, text: clause.text, status: 'unchecked', reason: why ?? 'no check of this run exercises it' };
  });
}

/** `pass` becomes `partial` when a clause of the rule went unchecked; the reason lists those clauses. */
export function withClauses(verdict: { status: RuleStatus; reason?: string }, clauses: readonly ClauseResult[]): { status: RuleStatus; reason?: string } {
  if (verdict.status !== 'pass') return verdict;
  const unchecked = clauses.filter((c) => c.status === 'unchecked');
  if (unchecked.length === 0) return verdict;
  return { status: 'partial', reason: `unchecked on this target: ${unchecked.map((c) => `${c.id} (${c.reason})`).join('; ')}` };
}

/**
 * A check skipped for a missing prerequisite names the rules that judge it; this adds the first of them that failed,
 * warned or errored in the run (the one to look at first), to the check and its message.
 */
export function nameFailedPrerequisites(rule: RuleResult, all: readonly RuleResult[]): RuleResult {
  if (!rule.checks.some((c) => c.status === 'skipped' && c.prerequisite)) return rule;
  const broken = (id: RuleId) => ['fail', 'warn', 'error'].includes(all.find((r) => r.id === id)?.status ?? '');
  const checks = rule.checks.map((c): CheckResult => {
    if (c.status !== 'skipped' || !c.prerequisite) return c;
    // The rules the check named first; then what its rules build on, as the catalog declares it (dependsOn).
    const failedFirst = c.prerequisite.rules.find(broken) ?? prerequisitesOf(ruleIdsInTitle(c.name)).find(broken);
    if (!failedFirst) return c;
    // Worded by what the rule came to: a rule that errored did not fail.
    const came = { fail: 'failed', warn: 'warned', error: 'errored' }[all.find((r) => r.id === failedFirst)?.status as 'fail' | 'warn' | 'error'];
    return { ...c, message: `${c.message} (${failedFirst} ${came})`, prerequisite: { ...c.prerequisite, failedFirst } };
  });
  const verdict = ruleStatus(checks);
  return { ...rule, checks, ...(rule.status === 'skipped' && verdict.reason !== undefined && { reason: verdict.reason }) };
}

/**
 * A rule's status from its checks (at least one), by precedence:
 * `error` › `fail` › `warn` › `info` › `pass` › `not-applicable` (only when every check is) › `skipped`.
 *
 * So one errored check makes the rule `error` even when another failed (the verdict is incomplete); one passed
 * check makes it `pass` even when others were skipped. `reason` is set for `error`, `skipped` and `not-applicable`:
 * the message of the first check with that status.
 */
export function ruleStatus(checks: readonly CheckResult[]): { status: RuleStatus; reason?: string } {
  // A check that found the rule broken stands, whatever another check could not judge (as the exit code has it): the
  // errored check is still listed, and still makes the exit code 1.
  if (checks.some((c) => c.status === 'fail')) return { status: 'fail' };
  if (checks.some((c) => c.status === 'warn')) return { status: 'warn' };
  const errored = checks.find((c): c is ErroredCheck => c.status === 'error');
  if (errored) {
    return { status: 'error', reason: errored.message.includes(errored.code) ? errored.message : `${errored.code}: ${errored.message}` };
  }
  for (const status of ['fail', 'warn', 'info', 'pass'] as const) {
    if (checks.some((c) => c.status === status)) return { status };
  }
  const notRun = checks.filter((c): c is NotRunCheck => c.status === 'skipped' || c.status === 'not-applicable');
  if (notRun.length > 0 && notRun.length === checks.length && notRun.every((c) => c.status === 'not-applicable')) {
    return { status: 'not-applicable', reason: notRun[0]?.message ?? 'not applicable' };
  }
  const reason = (notRun.find((c) => c.status === 'skipped') ?? notRun[0])?.message ?? 'no check ran';
  return { status: 'skipped', reason };
}

/**
 * The exit code of a run, by precedence:
 * 1. a rule `fail`ed (only MUST rules fail; SHOULD rules warn, INFO rules inform) → 1: a verdict found stands even
 *    when other checks could not reach the target;
 * 2. an errored check or run error carries a code of `unreachableCodes` → 3;
 * 3. any other errored check or run error (a timeout, a harness failure, an interrupted run) → 1, because
 *    "nothing errored" is a condition of success;
 * 4. otherwise 0 (warnings, observations, skipped and not-applicable rules do not change it).
 *
 * Usage and configuration errors (2) are the CLI's and never come from a report.
 */
export function exitCodeFor(
  rules: readonly RuleResult[],
  runErrors: readonly RunError[] = [],
  unreachableCodes: ReadonlySet<string> = UNREACHABLE_CODES,
): ReportExitCode {
  if (rules.some((r) => r.status === 'fail')) return EXIT_CODES.mustFailed;
  const errorCodes = [
    ...rules.flatMap((r) => r.checks.flatMap((c) => (c.status === 'error' ? [c.code] : []))),
    ...runErrors.map((e) => e.code),
  ];
  if (errorCodes.some((code) => unreachableCodes.has(code))) return EXIT_CODES.unreachable;
  if (errorCodes.length > 0 || rules.some((r) => r.status === 'error')) return EXIT_CODES.mustFailed;
  return EXIT_CODES.ok;
}

/**
 * Rule counts by status; the rules the run did not select (see {@link isNotSelected}) are counted in `notSelected`
 * only, not in `skipped`.
 */
export function summarize(rules: readonly RuleResult[]): Summary {
  const notSelected = rules.filter((r) => isNotSelected(r)).length;
  const count = (status: RuleStatus): number => rules.filter((r) => r.status === status && !isNotSelected(r)).length;
  return {
    pass: count('pass'),
    partial: count('partial'),
    fail: count('fail'),
    warn: count('warn'),
    info: count('info'),
    skipped: count('skipped'),
    notApplicable: count('not-applicable'),
    error: count('error'),
    notSelected,
  };
}

/**
 * A failed or warned check that judges its file's exchanges (`meta.replayFile`) is replayed by re-running every rule the
 * run checked in that file: replaying it alone would send nothing for it to judge.
 */
function withFileReplay(check: CheckResult, record: TestRecord, records: readonly TestRecord[], seed: number): CheckResult {
  if (!record.meta?.replayFile || (check.status !== 'fail' && check.status !== 'warn')) return check;
  const ids = records.filter((r) => r.file === record.file).flatMap((r) => ruleIdsInTitle(r.title));
  return { ...check, replay: fileReplayCommand(ids, seed) };
}

/** A failed or warned check's replay command in the run's context (see {@link BuildOptions.replayContext}). */
function completeReplay(check: CheckResult, options: BuildOptions): CheckResult {
  const context = options.replayContext;
  if (context === undefined || (check.status !== 'fail' && check.status !== 'warn')) return check;
  const replay = check.replay !== undefined
    ? withContext(check.replay, context)
    : replayCommand({ check: check.name }, options.seed, context);
  return { ...check, replay };
}

/** The run's throttling, summed from the checks' `meta.throttle`: present when any was met, and for a live target. */
function throttlingOf(records: readonly TestRecord[], live: boolean): { throttling?: Throttling } {
  let throttled = 0;
  let waitedMs = 0;
  let gaveUp = 0;
  let endIntervalMs = 0;
  const statuses: Record<string, number> = {};
  const gatewayResent: Record<string, number> = {};
  const retryAfter = new Set<string>();
  for (const r of records) {
    const t = r.meta?.throttle;
    if (!t) continue;
    for (const [s, n] of Object.entries(t.gatewayResent ?? {})) gatewayResent[s] = (gatewayResent[s] ?? 0) + n;
    throttled += t.throttled;
    waitedMs += t.waitedMs;
    gaveUp += t.gaveUp;
    endIntervalMs = t.intervalMs;
    for (const [s, n] of Object.entries(t.statuses)) statuses[s] = (statuses[s] ?? 0) + n;
    for (const v of t.retryAfter) if (retryAfter.size < 8) retryAfter.add(v);
  }
  const resent = Object.keys(gatewayResent).length > 0;
  if (throttled === 0 && !resent && !live) return {};
  return { throttling: { throttled, waitedMs: Math.round(waitedMs), statuses, retryAfter: [...retryAfter], endIntervalMs: Math.round(endIntervalMs), gaveUp, ...(resent && { gatewayResent }) } };
}

function sumResources(records: readonly TestRecord[]): Resources {
  let tokens = 0;
  let sessionsOpened = 0;
  let sessionsClosed = 0;
  for (const r of records) {
    const used = r.meta?.resources;
    if (!used) continue;
    tokens += used.tokens;
    sessionsOpened += used.sessionsOpened;
    sessionsClosed += used.sessionsClosed;
  }
  return { tokens, sessionsOpened, sessionsClosed };
}

function selectedIds(selection: readonly string[] | undefined): ReadonlySet<RuleId> {
  if (selection === undefined) return new Set(catalog.map((r) => r.id));
  const ids = new Set<RuleId>();
  for (const id of selection) {
    if (!isRuleId(id)) throw new UnknownRuleError(id);
    ids.add(id);
  }
  return ids;
}

/** Stable: tests of one file keep the order they were reported in (declaration order for the reporter). */
function sortByFile(records: readonly TestRecord[]): TestRecord[] {
  return [...records].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

type InfoOutcome = Extract<NonNullable<CheckMeta['outcome']>, { kind: 'info' }>;

function infoFields(outcome: InfoOutcome): {
  status: 'info'; message: string; observed: string; publiclySeen?: string; matchesPublic: boolean;
} {
  const comparison = outcome.publiclySeen === undefined
    ? 'nothing public to compare with'
    : `publicly seen: ${outcome.publiclySeen}; ${outcome.matchesPublic ? 'the same' : 'different'}`;
  return {
    status: 'info',
    message: `observed: ${outcome.observed} (${comparison})`,
    observed: outcome.observed,
    ...compact({ publiclySeen: outcome.publiclySeen }),
    matchesPublic: outcome.matchesPublic,
  };
}

/** The object without its `undefined` properties, so reports hold no keys without values. */
function compact<T extends Record<string, unknown>>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = v;
  return out as { [K in keyof T]?: Exclude<T[K], undefined> };
}
