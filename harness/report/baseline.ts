/**
 * Known-failures baselines (`tds-conformance run --baseline known.json`): a checked-in list of the rules (or single
 * checks) a target is known to break. A listed failure does not fail the run; a listed failure that passes does,
 * until it is removed from the list, so the file always says exactly what is broken. Like connectrpc/conformance's
 * `--known-failing` and undici's WPT expectations.
 *
 * ```json
 * {
 *   "knownFailures": [
 *     "LIFE-01",
 *     { "rule": "REST-03", "reason": "answers token_type \"Bearer\" (ticket OPS-123)" },
 *     { "rule": "ERR-01", "checks": ["ERR-01: missing or syntactically wrong credentials get invalid_client …"] }
 *   ]
 * }
 * ```
 *
 * Everything here is pure but {@link readBaselineFile} and {@link writeBaselineFile}.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { getRule, isRuleId, ruleIdsInTitle } from '../spec/index.ts';
import type { RuleId } from '../spec/index.ts';
import { exitCodeFor, UNREACHABLE_CODES } from './build.ts';
import { BaselineError } from './errors.ts';
import { EXIT_CODES } from './model.ts';
import type { BaselineSummary, Report, ReportExitCode, RuleResult } from './model.ts';

/** One entry of a baseline: a rule, or some of its checks, expected to fail. */
export interface KnownFailure {
  readonly rule: RuleId;
  /** Full titles of the rule's checks that are expected to fail; the whole rule when absent. */
  readonly checks?: readonly string[];
  /** Why it is known to fail (a ticket, a note). Kept by `--update-baseline`. */
  readonly reason?: string;
}

export interface Baseline {
  readonly knownFailures: readonly KnownFailure[];
}

/** What applying a baseline to a report gives. */
export interface BaselineOutcome {
  /** The report with `knownFailure` marks, the `baseline` section and the adjusted `exitCode`. */
  readonly report: Report;
  readonly exitCode: ReportExitCode;
  /** What fails the run because of the baseline (listed failures that passed), one sentence each. */
  readonly messages: readonly string[];
}

const FORMAT_HINT = 'a baseline is { "knownFailures": [ "REST-03", { "rule": "ERR-01", "checks": ["ERR-01: …"], "reason": "…" } ] }';
const ENTRY_KEYS = new Set(['rule', 'checks', 'reason']);

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
    throw new BaselineError('BASELINE_INVALID', file, `the baseline file "${file}" is not valid JSON (${(err as Error).message}); ${FORMAT_HINT}`, { cause: err });
  }
  if (!isObject(data) || !Array.isArray(data['knownFailures'])) {
    throw invalid(`has no "knownFailures" list; ${FORMAT_HINT}`);
  }
  for (const key of Object.keys(data)) {
    if (key !== 'knownFailures' && !key.startsWith('$')) {
      throw invalid(`has an unknown field "${key}"; only "knownFailures" (and "$comment") are read`);
    }
  }
  const seen = new Map<RuleId, number>();
  const knownFailures = (data['knownFailures'] as unknown[]).map((entry, index): KnownFailure => {
    const where = `knownFailures[${index}]`;
    const raw: unknown = typeof entry === 'string' ? { rule: entry } : entry;
    if (!isObject(raw)) throw invalid(`has ${where} that is neither a rule ID nor an object; ${FORMAT_HINT}`);
    for (const key of Object.keys(raw)) {
      if (!ENTRY_KEYS.has(key)) throw invalid(`has ${where} with an unknown field "${key}"; an entry has "rule", "checks" and "reason"`);
    }
    const rule = raw['rule'];
    if (typeof rule !== 'string') throw invalid(`has ${where} without a "rule" (a rule ID such as "REST-03")`);
    if (!isRuleId(rule)) {
      throw invalid(`names the rule "${rule}" (${where}), which the catalog does not have; "tds-conformance rules" lists the rule IDs`);
    }
    if (getRule(rule).level === 'INFO') {
      throw invalid(`lists ${rule} (${where}), an INFO rule; INFO rules record what was observed and never fail: remove it`);
    }
    const previous = seen.get(rule);
    if (previous !== undefined) throw invalid(`lists ${rule} twice (knownFailures[${previous}] and ${where}); merge the two entries`);
    seen.set(rule, index);
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
    return {
      rule,
      ...(checks !== undefined && { checks: [...new Set(checks as string[])] }),
      ...(reason !== undefined && { reason }),
    };
  });
  return { knownFailures };
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
  const entries = baseline.knownFailures.map((k) => (k.checks === undefined && k.reason === undefined ? k.rule : k));
  return `${JSON.stringify({
    $comment: 'Known failures for "tds-conformance run --baseline <this file>": a listed rule (or check) may fail without '
      + 'failing the run; one that passes fails the run until it is removed. "--update-baseline" rewrites the list.',
    knownFailures: entries,
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
 * For each entry, by the status of its rule in the report:
 * - `fail` or `warn`: a known failure (the rule is marked `knownFailure`) when the entry lists the whole rule, or
 *   lists every check of the rule that failed; a failed check the entry does not list keeps the rule a failure.
 * - `pass`: an unexpected pass, which fails the run ("REST-03 is listed as a known failure in known.json but passed:
 *   remove it from the baseline"). For an entry listing checks, each listed check that passed is one.
 * - `skipped`, `not-applicable`, `error`: not judged; an error keeps counting as one.
 *
 * The exit code is the report's, computed as if the known failures had not failed ({@link exitCodeFor}); any
 * unexpected pass makes it 1.
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
  const known = new Set<RuleId>();
  const unexpected = new Set<RuleId>();
  const notJudged: RuleId[] = [];
  const messages: string[] = [];

  for (const rule of report.rules) {
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
    const failing = rule.checks.filter((c) => FAILING.has(c.status));
    if (FAILING.has(rule.status) && failing.length > 0 && failing.every((c) => listed.has(c.name))) known.add(rule.id);
  }

  const rules = report.rules.map((r): RuleResult => (known.has(r.id) ? { ...r, knownFailure: true } : r));
  // Known failures count as not failing: `warn` does not fail a run.
  const judged = rules.map((r): RuleResult => (r.knownFailure ? { ...r, status: 'warn' } : r));
  const withoutBaseline = report.baseline?.exitCodeWithout ?? report.exitCode;
  const exitCode: ReportExitCode = unexpected.size > 0 ? EXIT_CODES.mustFailed : exitCodeFor(judged, report.runErrors, unreachableCodes);
  const summary: BaselineSummary = {
    file,
    knownFailures: rules.filter((r) => known.has(r.id)).map((r) => r.id),
    unexpectedPasses: rules.filter((r) => unexpected.has(r.id)).map((r) => r.id),
    notJudged,
    messages,
    exitCodeWithout: withoutBaseline,
  };
  return { report: { ...report, rules, exitCode, baseline: summary }, exitCode, messages };
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
  const knownFailures: KnownFailure[] = [];
  for (const rule of report.rules) {
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
  return { knownFailures };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
