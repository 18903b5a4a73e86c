/**
 * Merging reports: the shards of one run (`run --shard i/n`, each on its own CI machine) into the report of the whole
 * run, and the runs of different subjects (targets, clients) into a conformance matrix (see `matrix.ts`).
 *
 * A shard ran some of the suites' files, so a rule's checks may be spread over several shards. The merged report has
 * each rule's checks from every shard (a check, being one test of one file, ran in exactly one shard) and judges the
 * rule again from them, as the unsharded run would have: status by the same precedence, clauses, prerequisites.
 */
import { getRule, type RuleId } from '../catalog/index.ts';
import { applyBaseline, type Baseline, type ExpectedSkip } from './baseline.ts';
import { clauseResults, exitCodeFor, nameFailedPrerequisites, ruleStatus, SHARD_SKIP_PREFIX, summarize, withClauses } from './build.ts';
import { applyGate } from './gate.ts';
import { isNotSelected } from './model.ts';
import type { CheckResult, Completion, Report, RuleResult, RunError, UnmappedTest } from './model.ts';

/** Thrown when reports cannot be merged into one; `code` says why. */
export class MergeError extends Error {
  constructor(readonly code: 'MERGE_NOTHING' | 'MERGE_MIXED_RUNS', message: string) {
    super(message);
    this.name = 'MergeError';
  }
}

/** What a report was run against: its target's name, or the label given to it (`label=path` on the command line). */
export interface SubjectReport {
  readonly subject: string;
  readonly file: string;
  readonly report: Report;
}

const COMPLETION_ORDER: readonly Completion[] = ['complete', 'partial', 'interrupted'];

/** The reports grouped by subject, in the order subjects first appear. */
export function groupBySubject(reports: readonly SubjectReport[]): Map<string, SubjectReport[]> {
  const groups = new Map<string, SubjectReport[]>();
  for (const r of reports) groups.set(r.subject, [...(groups.get(r.subject) ?? []), r]);
  return groups;
}

/** A check whose prerequisite was named as failed in one shard is named again from the merged rules. */
function withoutFailedFirst(check: CheckResult): CheckResult {
  if (check.status !== 'skipped' || !check.prerequisite?.failedFirst) return check;
  const { failedFirst, ...prerequisite } = check.prerequisite;
  const suffix = ` (${failedFirst} failed)`;
  return { ...check, message: check.message.endsWith(suffix) ? check.message.slice(0, -suffix.length) : check.message, prerequisite };
}

function mergeRule(id: RuleId, results: readonly RuleResult[]): RuleResult {
  const first = results[0] as RuleResult;
  const seen = new Set<string>();
  const checks: CheckResult[] = [];
  for (const r of results) {
    for (const c of r.checks) {
      if (seen.has(c.name)) continue;
      seen.add(c.name);
      checks.push(withoutFailedFirst(c));
    }
  }
  // A shard's baseline marks judged that shard; the merged rule is judged again (see judgeMerged).
  const {
    status: _status, reason: _reason, notSelected: _notSelected, clauses: _clauses, checks: _checks,
    knownFailure: _knownFailure, knownFlaky: _knownFlaky, expectedSkip: _expectedSkip, ...base
  } = first;
  if (checks.length === 0) {
    // No shard ran a check of it: not covered (the same reason in every shard that selected it), or not selected.
    const { knownFailure: _k, knownFlaky: _f, expectedSkip: _e, ...rule } = results.find((r) => !isNotSelected(r)) ?? first;
    // Selected in shards that did not hold its files: the shard that did is not among those merged.
    if (rule.reason?.startsWith(SHARD_SKIP_PREFIX)) return { ...rule, reason: 'no check of it ran in the shards merged: its files are in a shard not given' };
    return rule;
  }
  const clauses = clauseResults(getRule(id), checks);
  return { ...base, ...withClauses(ruleStatus(checks), clauses), clauses, checks };
}

/**
 * The shards of one run (same seed, runs and target) as one report. A single report is returned as it is.
 * @throws {MergeError} `MERGE_NOTHING` without reports, `MERGE_MIXED_RUNS` when seeds, runs or tool versions differ
 * (their verdicts would not be those of one run).
 */
export function mergeShards(reports: readonly Report[]): Report {
  const [first] = reports;
  if (!first) throw new MergeError('MERGE_NOTHING', 'no report to merge');
  if (reports.length === 1) return first;
  for (const r of reports) {
    const differs = r.seed !== first.seed ? `seed ${r.seed} and ${first.seed}` : r.runs !== first.runs ? `--runs ${r.runs} and ${first.runs}`
      : r.tool.version !== first.tool.version ? `tool versions ${r.tool.version} and ${first.tool.version}` : undefined;
    if (differs) {
      throw new MergeError('MERGE_MIXED_RUNS', `the reports of ${first.target.name} come from different runs (${differs}); shards of one run share its seed, --runs and tool version`);
    }
  }
  const counts = [...new Set(reports.flatMap((r) => (r.shard ? [r.shard.count] : [])))];
  if (counts.length > 1) {
    throw new MergeError('MERGE_MIXED_RUNS', `the reports of ${first.target.name} come from different splits of the suites' files (--shard i/${counts.join(' and i/')}); the shards of one run share its count`);
  }
  const byId = new Map<RuleId, RuleResult[]>();
  for (const r of reports) for (const rule of r.rules) byId.set(rule.id, [...(byId.get(rule.id) ?? []), rule]);
  const merged = first.rules.map((rule) => mergeRule(rule.id, byId.get(rule.id) ?? [rule]));
  const rules = merged.map((r) => nameFailedPrerequisites(r, merged));

  const unmapped = new Map<string, UnmappedTest>();
  for (const r of reports) for (const u of r.unmapped) unmapped.set(`${u.file}\u0000${u.name}`, u);
  const runErrors = new Map<string, RunError>();
  for (const r of reports) for (const e of r.runErrors) runErrors.set(`${e.code}\u0000${e.message}`, e);
  const selection = new Set<RuleId>(reports.flatMap((r) => r.selection));
  const completion = reports.map((r) => r.completion).reduce((a, b) => (COMPLETION_ORDER.indexOf(b) > COMPLETION_ORDER.indexOf(a) ? b : a));
  // The baseline and the gate judged one shard; the merged report is the whole run's (see judgeMerged).
  const { baseline: _baseline, gate: _gate, deferredGate: _deferredGate, deferredBaseline: _deferredBaseline, shard: _shard, ...rest } = first;
  return {
    ...rest,
    startedAt: reports.map((r) => r.startedAt).sort()[0] ?? first.startedAt,
    finishedAt: reports.map((r) => r.finishedAt).sort().at(-1) ?? first.finishedAt,
    completion,
    exitCode: exitCodeFor(rules, [...runErrors.values()]),
    selection: first.rules.map((r) => r.id).filter((id) => selection.has(id)),
    summary: summarize(rules),
    resources: {
      tokens: reports.reduce((n, r) => n + r.resources.tokens, 0),
      sessionsOpened: reports.reduce((n, r) => n + r.resources.sessionsOpened, 0),
      sessionsClosed: reports.reduce((n, r) => n + r.resources.sessionsClosed, 0),
    },
    rules,
    unmapped: [...unmapped.values()],
    runErrors: [...runErrors.values()],
  };
}

/** The exit code of several subjects' reports: 1 when any is 1, else 3 when any is 3, else 0. */
export function combinedExitCode(reports: readonly Report[]): 0 | 1 | 3 {
  if (reports.some((r) => r.exitCode === 1)) return 1;
  if (reports.some((r) => r.exitCode === 3)) return 3;
  return 0;
}

/**
 * The run-level judgments of a run that was sharded, applied to the merged report as the unsharded run would have had
 * them. A shard given a baseline (`run --shard … --baseline`) records it (`deferredBaseline`): the merge applies it
 * again to the merged rules (a known failure excused, a listed rule that passed everywhere an unexpected pass). A shard
 * with the certification gate on (`--require-checked`, or the baseline's `requireChecked`) left the gate to the merge
 * (`deferredGate`), as a shard cannot tell a rule left unchecked from one checked in another shard: applied here, with
 * the shards' expected skips, when any shard asked for it or `requireChecked` (`merge --require-checked`) does.
 * `given` (`merge --baseline`) takes the place of the shards' baseline, for the gate too (its `requireChecked` turns
 * it on, its expected skips are accepted). The report is returned as it is when none of these applies.
 */
export function judgeMerged(
  merged: Report,
  shards: readonly Report[],
  requireChecked = false,
  given?: { readonly file: string; readonly baseline: Baseline },
): { report: Report; messages: readonly string[] } {
  const messages: string[] = [];
  let report = merged;
  const baseline = given ?? shards.find((r) => r.deferredBaseline !== undefined)?.deferredBaseline;
  if (baseline !== undefined) {
    // Marks of a baseline the report was judged by before (a single report merged again) are not this one's.
    const unmarked = { ...report, rules: report.rules.map(({ knownFailure: _k, knownFlaky: _f, ...rule }) => rule) };
    const judged = applyBaseline(unmarked, baseline.baseline, baseline.file);
    report = judged.report;
    messages.push(...judged.messages);
  }
  const deferred = shards.flatMap((r) => (r.deferredGate ? [r.deferredGate] : []));
  // As in one run: the gate is on by the flag or by the baseline the report is judged by, whose expected skips it
  // accepts (the shards' own, which their deferred gates repeat, unless `merge --baseline` gave another).
  if (deferred.length > 0 || requireChecked || baseline?.baseline.requireChecked === true) {
    const skips = new Map<RuleId, ExpectedSkip>();
    const lists = baseline ? [baseline.baseline.expectedSkips ?? []] : deferred.map((d) => d.expectedSkips);
    for (const list of lists) for (const e of list) if (!skips.has(e.rule)) skips.set(e.rule, e);
    const { gate: _gate, deferredGate: _deferredGate, ...ungated } = report;
    const whole = { ...ungated, rules: ungated.rules.map(({ expectedSkip: _e, ...rule }) => rule) };
    const gated = applyGate(whole, [...skips.values()], baseline?.file ?? deferred.find((d) => d.baselineFile !== undefined)?.baselineFile);
    report = gated.report;
    messages.push(...gated.messages);
  }
  return { report, messages };
}

/**
 * What is missing from the shards of one run, in one sentence, or undefined: the shards given say how many there are
 * (`report.shard`), and a shard that is not among them leaves its files' checks out of the merged report.
 */
export function missingShards(shards: readonly Report[]): string | undefined {
  const parts = shards.flatMap((r) => (r.shard ? [r.shard] : []));
  const count = parts[0]?.count;
  if (count === undefined) return undefined;
  // Shards of different counts were refused by mergeShards.
  const given = new Set(parts.map((p) => p.index));
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !given.has(i));
  return missing.length === 0 ? undefined : `shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${count}`).join(', ')} not given: the checks of ${missing.length === 1 ? 'its' : 'their'} files are missing from the merged report`;
}
