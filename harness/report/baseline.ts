/**
 * Baselines (`tds-conformance run --baseline known.json`): a checked-in file of what is expected of a target.
 *
 * - `knownFailures`: the rules (or single checks) a target is known to break. A listed failure does not fail the
 *   run; a listed failure that passes does, until it is removed from the list, so the file always says exactly what
 *   is broken. Like connectrpc/conformance's `--known-failing` and undici's WPT expectations.
 * - `knownFlaky`: rules (or checks) that may pass or fail from one run to the next (connect's `--known-flaky`): a
 *   failure does not fail the run, a pass is no news. `diff` over several reports counts the runs each flipped in.
 * - `expectedSkips`: rules the target cannot check, each with its reason (the OpenID conformance suite's expected
 *   skips): the certification gate (`requireChecked`, or `run --require-checked`) accepts them `skipped`,
 *   `not-applicable` or `partial`, and fails the run on any other selected rule that ends so (see gate.ts).
 *
 * ```json
 * {
 *   "requireChecked": true,
 *   "knownFailures": [
 *     "LIFE-01",
 *     { "rule": "REST-03", "reason": "answers token_type \"Bearer\" (ticket OPS-123)" },
 *     { "rule": "ERR-01", "checks": ["ERR-01: missing or syntactically wrong credentials get invalid_client …"] }
 *   ],
 *   "knownFlaky": [{ "rule": "API-05", "reason": "the rate limit of CERT is shared with other teams" }],
 *   "expectedSkips": [{ "rule": "LIFE-02", "reason": "CERT has no clock control: the expiry clause stays unchecked" }]
 * }
 * ```
 *
 * Everything here is pure but {@link readBaselineFile} and {@link writeBaselineFile}.
 */
import { jsonErrorPlace } from '../json-error.ts';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { getRule, isRuleId, ruleIdsInTitle } from '../catalog/index.ts';
import type { RuleId } from '../catalog/index.ts';
import { exitCodeFor, UNREACHABLE_CODES } from './build.ts';
import { BaselineError } from './errors.ts';
import { EXIT_CODES } from './model.ts';
import type { Baseline, BaselineSummary, ExpectedSkip, KnownFailure, KnownFlaky, Report, ReportExitCode, RuleResult } from './model.ts';

// The baseline file's entries are part of the report model (a shard's report carries its baseline for the merge).
export type { Baseline, ExpectedSkip, KnownFailure, KnownFlaky } from './model.ts';

/** What applying a baseline to a report gives. */
export interface BaselineOutcome {
  /** The report with `knownFailure` marks, the `baseline` section and the adjusted `exitCode`. */
  readonly report: Report;
  readonly exitCode: ReportExitCode;
  /** What fails the run because of the baseline (listed failures that passed), one sentence each. */
  readonly messages: readonly string[];
}

const FORMAT_HINT = 'a baseline is { "knownFailures": [ "REST-03", { "rule": "ERR-01", "checks": ["ERR-01: …"], "reason": "…" } ], '
  + '"knownFlaky": [ … same entries … ], "expectedSkips": [ { "rule": "LIFE-02", "reason": "…" } ], "requireChecked": true } (every key optional)';
const LISTS = ['knownFailures', 'knownFlaky', 'expectedSkips'] as const;
type ListKey = (typeof LISTS)[number];
const ENTRY_KEYS: Record<ListKey, ReadonlySet<string>> = {
  knownFailures: new Set(['rule', 'checks', 'reason']),
  knownFlaky: new Set(['rule', 'checks', 'reason']),
  expectedSkips: new Set(['rule', 'reason']),
};

/**
 * Reads a baseline from the text of its file, checking every entry.
 *
 * @param file the file's name as the user gave it, for messages.
 * @throws {BaselineError} `BASELINE_INVALID`, with a message naming the file, the entry and what to change.
 */
export function parseBaseline(text: string, file: string): Baseline {
  const invalid = (what: string): BaselineError =>
    new BaselineError('BASELINE_INVALID', file, `the baseline file "${file}" ${what}`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new BaselineError('BASELINE_INVALID', file, `the baseline file "${file}" is not valid JSON (${jsonErrorPlace(text, err)}); ${FORMAT_HINT}`, { cause: err });
  }
  if (!isObject(data) || !LISTS.some((k) => k in data)) {
    throw invalid(`has none of "knownFailures", "knownFlaky" and "expectedSkips"; ${FORMAT_HINT}`);
  }
  for (const key of Object.keys(data)) {
    if (!(LISTS as readonly string[]).includes(key) && key !== 'requireChecked' && !key.startsWith('$')) {
      throw invalid(`has an unknown field "${key}"; only "knownFailures", "knownFlaky", "expectedSkips", "requireChecked" (and "$comment") are read`);
    }
  }
  const requireChecked = data['requireChecked'];
  if (requireChecked !== undefined && typeof requireChecked !== 'boolean') throw invalid('has a "requireChecked" that is not true or false');
  // A rule is in one list at most: what is expected of it must be one thing.
  const seen = new Map<RuleId, string>();
  const entries = (key: ListKey) => {
    const list = data[key] ?? [];
    if (!Array.isArray(list)) throw invalid(`has a "${key}" that is not a list; ${FORMAT_HINT}`);
    return list.map((entry: unknown, index) => {
      const where = `${key}[${index}]`;
      const raw: unknown = typeof entry === 'string' && key !== 'expectedSkips' ? { rule: entry } : entry;
      if (!isObject(raw)) {
        throw invalid(key === 'expectedSkips'
          ? `has ${where} that is not an object: an expected skip is { "rule": "LIFE-02", "reason": "why this target cannot check it" }`
          : `has ${where} that is neither a rule ID nor an object; ${FORMAT_HINT}`);
      }
      for (const field of Object.keys(raw)) {
        if (!ENTRY_KEYS[key].has(field)) throw invalid(`has ${where} with an unknown field "${field}"; an entry of "${key}" has ${[...ENTRY_KEYS[key]].map((f) => `"${f}"`).join(', ')}`);
      }
      const rule = raw['rule'];
      if (typeof rule !== 'string') throw invalid(`has ${where} without a "rule" (a rule ID such as "REST-03")`);
      if (!isRuleId(rule)) {
        throw invalid(`names the rule "${rule}" (${where}), which the catalog does not have; "tds-conformance rules" lists the rule IDs`);
      }
      if (key !== 'expectedSkips' && getRule(rule).level === 'INFO') {
        throw invalid(`lists ${rule} (${where}), an INFO rule; INFO rules record what was observed and never fail: remove it`);
      }
      const previous = seen.get(rule);
      if (previous !== undefined) throw invalid(`lists ${rule} twice (${previous} and ${where}); a rule is in one list, once: merge or remove one`);
      seen.set(rule, where);
      const checks = raw['checks'];
      if (checks !== undefined) {
        if (!Array.isArray(checks) || checks.length === 0 || !checks.every((c) => typeof c === 'string')) {
          throw invalid(`has ${where} whose "checks" is not a non-empty list of check titles; leave "checks" out to list the whole rule`);
        }
        for (const check of checks as string[]) {
          if (!ruleIdsInTitle(check).includes(rule)) {
            throw invalid(`has ${where} with the check "${check}", which is not a check of ${rule}: check titles start with the rule IDs they verify ("${rule}: …")`);
          }
        }
      }
      const reason = raw['reason'];
      if (reason !== undefined && typeof reason !== 'string') throw invalid(`has ${where} whose "reason" is not a string`);
      if (key === 'expectedSkips' && (typeof reason !== 'string' || reason.trim() === '')) {
        throw invalid(`has ${where} (${rule}) without a "reason": an expected skip says why this target cannot check the rule`);
      }
      return {
        rule,
        ...(checks !== undefined && { checks: [...new Set(checks as string[])] }),
        ...(reason !== undefined && { reason: reason as string }),
      };
    });
  };
  const knownFailures: KnownFailure[] = entries('knownFailures');
  const knownFlaky: KnownFlaky[] = entries('knownFlaky');
  const expectedSkips = entries('expectedSkips') as ExpectedSkip[];
  return {
    knownFailures,
    ...(knownFlaky.length > 0 && { knownFlaky }),
    ...(expectedSkips.length > 0 && { expectedSkips }),
    ...(requireChecked !== undefined && { requireChecked }),
  };
}

/**
 * Reads and checks a baseline file.
 *
 * @param path where the file is.
 * @param file its name as the user gave it, for messages (default `path`).
 * @param options `allowMissing`: a file that does not exist is an empty baseline (for `--update-baseline`).
 * @throws {BaselineError} `BASELINE_NOT_FOUND` or `BASELINE_INVALID`.
 */
export async function readBaselineFile(path: string, file: string = path, options: { allowMissing?: boolean } = {}): Promise<Baseline> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && options.allowMissing) return { knownFailures: [] };
    if (code === 'ENOENT') {
      throw new BaselineError(
        'BASELINE_NOT_FOUND', file,
        `the baseline file "${file}" does not exist; write it from the current failures with "tds-conformance run --baseline ${file} --update-baseline"`,
        { cause: err },
      );
    }
    throw new BaselineError('BASELINE_INVALID', file, `the baseline file "${file}" cannot be read: ${(err as Error).message}`, { cause: err });
  }
  return parseBaseline(text, file);
}

/** The text of a baseline file: indented JSON with a comment saying what it is, ending with a newline. */
export function renderBaseline(baseline: Baseline): string {
  const short = <T extends { rule: RuleId; checks?: readonly string[]; reason?: string }>(k: T) => (k.checks === undefined && k.reason === undefined ? k.rule : k);
  return `${JSON.stringify({
    $comment: 'Known failures for "tds-conformance run --baseline <this file>": a listed rule (or check) may fail without '
      + 'failing the run; one that passes fails the run until it is removed. "--update-baseline" rewrites the list.',
    ...(baseline.requireChecked !== undefined && { requireChecked: baseline.requireChecked }),
    knownFailures: baseline.knownFailures.map(short),
    ...(baseline.knownFlaky && baseline.knownFlaky.length > 0 && { knownFlaky: baseline.knownFlaky.map(short) }),
    ...(baseline.expectedSkips && baseline.expectedSkips.length > 0 && { expectedSkips: baseline.expectedSkips }),
  }, null, 2)}\n`;
}

/**
 * Writes a baseline file (to a temporary name, then renamed, so a reader never sees half of it).
 * @throws {BaselineError} `BASELINE_WRITE_FAILED`.
 */
export async function writeBaselineFile(path: string, baseline: Baseline, file: string = path): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, renderBaseline(baseline), 'utf8');
    await rename(temporary, path);
  } catch (err) {
    throw new BaselineError('BASELINE_WRITE_FAILED', file, `could not write the baseline file "${file}": ${(err as Error).message}`, { cause: err });
  }
}

/** The message for a listed failure that passed. */
export function unexpectedPassMessage(rule: RuleId, file: string, check?: string): string {
  const what = check === undefined ? rule : `${rule} ("${check}")`;
  return `${what} is listed as a known failure in ${file} but passed: remove it from the baseline`;
}

const FAILING = new Set<RuleResult['status']>(['fail', 'warn']);
const NOT_JUDGED = new Set<RuleResult['status']>(['skipped', 'not-applicable', 'error', 'info']);

/**
 * Applies a baseline to a report.
 *
 * For each `knownFailures` entry, by the status of its rule in the report:
 * - `fail` or `warn`: a known failure (the rule is marked `knownFailure`) when the entry lists the whole rule, or
 *   lists every check of the rule that failed; a failed check the entry does not list keeps the rule a failure.
 * - `pass`: an unexpected pass, which fails the run ("REST-03 is listed as a known failure in known.json but passed:
 *   remove it from the baseline"). For an entry listing checks, each listed check that passed is one.
 * - `skipped`, `not-applicable`, `error`: not judged; an error keeps counting as one.
 *
 * A `knownFlaky` entry whose rule failed or warned as listed (the whole rule, or only listed checks) marks the rule
 * `knownFlaky`: it does not fail the run; a pass is no news. `expectedSkips` are for the gate (gate.ts).
 *
 * The exit code is the report's, computed as if the known failures and flaky failures had not failed
 * ({@link exitCodeFor}); any unexpected pass makes it 1.
 *
 * @param file the baseline file's name as the user gave it, for messages and `report.baseline.file`.
 */
export function applyBaseline(
  report: Report,
  baseline: Baseline,
  file: string,
  unreachableCodes: ReadonlySet<string> = UNREACHABLE_CODES,
): BaselineOutcome {
  const entries = new Map(baseline.knownFailures.map((k) => [k.rule, k]));
  const flakyEntries = new Map((baseline.knownFlaky ?? []).map((k) => [k.rule, k]));
  const known = new Set<RuleId>();
  const flaky = new Set<RuleId>();
  const unexpected = new Set<RuleId>();
  const notJudged: RuleId[] = [];
  const messages: string[] = [];
  /** Whether the rule failed (or warned) only in the checks the entry lists (every check, when it lists none). */
  const failedAsListed = (rule: RuleResult, checks: readonly string[] | undefined): boolean => {
    if (!FAILING.has(rule.status)) return false;
    if (checks === undefined) return true;
    const failing = rule.checks.filter((c) => FAILING.has(c.status));
    return failing.length > 0 && failing.every((c) => checks.includes(c.name));
  };

  for (const rule of report.rules) {
    const flakyEntry = flakyEntries.get(rule.id);
    if (flakyEntry !== undefined && failedAsListed(rule, flakyEntry.checks)) flaky.add(rule.id);
    const entry = entries.get(rule.id);
    if (entry === undefined) continue;
    if (NOT_JUDGED.has(rule.status)) {
      notJudged.push(rule.id);
      continue;
    }
    if (entry.checks === undefined) {
      if (FAILING.has(rule.status)) known.add(rule.id);
      else {
        unexpected.add(rule.id);
        messages.push(unexpectedPassMessage(rule.id, file));
      }
      continue;
    }
    const listed = new Set(entry.checks);
    for (const check of rule.checks) {
      if (listed.has(check.name) && check.status === 'pass') {
        unexpected.add(rule.id);
        messages.push(unexpectedPassMessage(rule.id, file, check.name));
      }
    }
    if (failedAsListed(rule, entry.checks)) known.add(rule.id);
  }

  const rules = report.rules.map((r): RuleResult => (known.has(r.id) ? { ...r, knownFailure: true } : flaky.has(r.id) ? { ...r, knownFlaky: true } : r));
  // Known failures and flaky failures count as not failing: `warn` does not fail a run.
  const judged = rules.map((r): RuleResult => (r.knownFailure || r.knownFlaky ? { ...r, status: 'warn' } : r));
  const withoutBaseline = report.baseline?.exitCodeWithout ?? report.exitCode;
  const exitCode: ReportExitCode = unexpected.size > 0 ? EXIT_CODES.mustFailed : exitCodeFor(judged, report.runErrors, unreachableCodes);
  const status = new Map(report.rules.map((r) => [r.id, r.status]));
  const summary: BaselineSummary = {
    file,
    knownFailures: rules.filter((r) => known.has(r.id)).map((r) => r.id),
    unexpectedPasses: rules.filter((r) => unexpected.has(r.id)).map((r) => r.id),
    notJudged,
    messages,
    exitCodeWithout: withoutBaseline,
    ...((baseline.knownFlaky ?? []).length > 0 && {
      knownFlaky: (baseline.knownFlaky ?? []).map((k) => ({ rule: k.rule, status: status.get(k.rule) ?? 'skipped', failed: flaky.has(k.rule), ...(k.reason !== undefined && { reason: k.reason }) })),
    }),
  };
  return { report: { ...report, rules, exitCode, baseline: summary }, exitCode, messages };
}

/** A baseline's outcome in one line, for the console of `run` and `merge`. */
export function baselineLine(b: BaselineSummary): string {
  return `baseline ${b.file}: ${b.knownFailures.length} known failure${b.knownFailures.length === 1 ? '' : 's'}, `
    + `${b.unexpectedPasses.length} unexpected pass${b.unexpectedPasses.length === 1 ? '' : 'es'}, ${b.notJudged.length} not judged`
    + (b.knownFlaky ? `, ${b.knownFlaky.filter((k) => k.failed).length} of ${b.knownFlaky.length} known-flaky failed` : '');
}

/**
 * The baseline of a report's current failures, for `--update-baseline`: an entry per failed rule, keeping
 * `previous`'s reasons. The entry lists the whole rule, unless `previous` listed checks of it: then it lists the
 * rule's checks that failed now. Entries of `previous` for rules this run could not judge (not selected, skipped,
 * not applicable, errored) or that only warned are kept, so updating from a partial run (`--only`) loses nothing.
 * In catalog order.
 */
export function createBaseline(report: Report, previous: Baseline = { knownFailures: [] }): Baseline {
  const before = new Map(previous.knownFailures.map((k) => [k.rule, k]));
  // A rule listed as flaky or as an expected skip stays there: its failures are not known failures.
  const elsewhere = new Set([...(previous.knownFlaky ?? []), ...(previous.expectedSkips ?? [])].map((k) => k.rule));
  const knownFailures: KnownFailure[] = [];
  for (const rule of report.rules) {
    if (elsewhere.has(rule.id)) continue;
    const old = before.get(rule.id);
    if (rule.status === 'fail') {
      const checks = [...new Set(rule.checks.filter((c) => c.status === 'fail').map((c) => c.name))];
      const whole = old?.checks === undefined || checks.length === 0;
      knownFailures.push({
        rule: rule.id,
        ...(!whole && { checks }),
        ...(old?.reason !== undefined && { reason: old.reason }),
      });
    } else if (old !== undefined && (rule.status === 'warn' || NOT_JUDGED.has(rule.status))) {
      knownFailures.push(old);
    }
  }
  return { ...previous, knownFailures };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
