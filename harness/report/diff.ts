/**
 * Comparing two runs (`tds-conformance diff a/report.json b/report.json`): which rules changed status, and the
 * counts by status before and after. Pure: the CLI reads the files.
 */
import { jsonErrorPlace } from '../json-error.ts';
import { ReportFileError } from './errors.ts';
import { isNotSelected, STATUSES } from './model.ts';
import type { Status } from './model.ts';

/**
 * A rule's status as a diff compares it: its status, or `not-selected` for a rule the run did not select (in
 * report.json `skipped` with `notSelected: true`), so that a rule selected in one run and not in the other shows as
 * a change, and the counts keep the rules skipped for a reason apart.
 */
export type ComparedStatus = Status | 'not-selected';

/** The part of a `report.json` a diff reads. Reports of other versions of the tool have at least this. */
export interface ComparableReport {
  readonly rules: readonly { readonly id: string; readonly status: ComparedStatus }[];
}

/** A rule's status in one report, or `absent` when that report does not list the rule (another catalog version). */
export type DiffStatus = ComparedStatus | 'absent';

/** The statuses a diff counts, in report order, `not-selected` last. */
export const COMPARED_STATUSES: readonly ComparedStatus[] = [...STATUSES, 'not-selected'];

export interface StatusChange {
  readonly id: string;
  readonly from: DiffStatus;
  readonly to: DiffStatus;
}

export interface ReportDiff {
  /** Rules whose status differs, in the order of the second report (then rules only the first one has). */
  readonly changes: readonly StatusChange[];
  /** How many rules have the same status in both. */
  readonly unchanged: number;
  /** Rule counts by status, before and after, in report order of the statuses (`not-selected` last). */
  readonly counts: readonly { readonly status: ComparedStatus; readonly before: number; readonly after: number }[];
}

const STATUS_SET = new Set<string>(STATUSES);

/**
 * Reads the text of a `report.json`, checking it has the `rules` a diff needs.
 *
 * @param file the file's name as the user gave it, for messages.
 * @throws {ReportFileError} `REPORT_FILE_INVALID` when it is not JSON or not a report.
 */
export function parseReportJson(text: string, file: string): ComparableReport {
  const notReport = (why: string) => new ReportFileError(
    'REPORT_FILE_INVALID', file,
    `"${file}" is not a report.json of tds-conformance run: ${why}; give the report.json a run wrote (by default reports/latest/report.json)`,
  );
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new ReportFileError('REPORT_FILE_INVALID', file, `"${file}" is not valid JSON (${jsonErrorPlace(text, err)}); give the report.json a run wrote (by default reports/latest/report.json)`, { cause: err });
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw notReport('it is not a JSON object');
  const { rules, tool } = data as { rules?: unknown; tool?: unknown };
  if (tool !== undefined && (typeof tool !== 'object' || tool === null || (tool as { name?: unknown }).name !== 'tds-auth-conformance')) {
    throw notReport('its "tool" is not tds-auth-conformance');
  }
  if (!Array.isArray(rules)) throw notReport('it has no "rules" list');
  const seen = new Set<string>();
  const checked = rules.map((rule: unknown, index) => {
    const { id, status, reason, notSelected, checks } = (typeof rule === 'object' && rule !== null ? rule : {}) as {
      id?: unknown; status?: unknown; reason?: unknown; notSelected?: unknown; checks?: unknown;
    };
    if (typeof id !== 'string' || typeof status !== 'string' || !STATUS_SET.has(status)) {
      throw notReport(`rules[${index}] has no rule "id" and "status" (one of ${STATUSES.join(', ')})`);
    }
    if (seen.has(id)) throw notReport(`it lists ${id} twice`);
    seen.add(id);
    const unselected = isNotSelected({
      status,
      ...(typeof reason === 'string' && { reason }),
      ...(notSelected === true && { notSelected }),
      ...(Array.isArray(checks) && { checks }),
    });
    return { id, status: unselected ? 'not-selected' as const : status as Status };
  });
  return { rules: checked };
}

/** The rules whose status changed from `before` to `after`, and the counts by status. */
export function diffReports(before: ComparableReport, after: ComparableReport): ReportDiff {
  const old = new Map(before.rules.map((r) => [r.id, r.status]));
  const now = new Map(after.rules.map((r) => [r.id, r.status]));
  const changes: StatusChange[] = [];
  let unchanged = 0;
  for (const rule of after.rules) {
    const from = old.get(rule.id) ?? 'absent';
    if (from === rule.status) unchanged++;
    else changes.push({ id: rule.id, from, to: rule.status });
  }
  for (const rule of before.rules) if (!now.has(rule.id)) changes.push({ id: rule.id, from: rule.status, to: 'absent' });
  const count = (report: ComparableReport, status: ComparedStatus) => report.rules.filter((r) => r.status === status).length;
  const counts = COMPARED_STATUSES.map((status) => ({ status, before: count(before, status), after: count(after, status) }));
  return { changes, unchanged, counts };
}

/**
 * The diff as text: a line per changed rule (`REST-03  pass → fail`), then the counts by status (`fail 0 → 1`
 * where they changed; `not-selected` only when a report has such rules) and how many rules changed.
 */
export function renderDiff(diff: ReportDiff): string {
  const width = Math.max(0, ...diff.changes.map((c) => c.id.length));
  const lines = diff.changes.map((c) => `${c.id.padEnd(width)}  ${c.from} → ${c.to}`);
  if (lines.length > 0) lines.push('');
  const counts = diff.counts.filter((c) => c.status !== 'not-selected' || c.before > 0 || c.after > 0);
  lines.push(counts.map((c) => `${c.status} ${c.before === c.after ? c.before : `${c.before} → ${c.after}`}`).join(', '));
  const n = diff.changes.length;
  lines.push(n === 0
    ? `no rule changed status (${diff.unchanged} unchanged)`
    : `${n} rule${n === 1 ? '' : 's'} changed status, ${diff.unchanged} unchanged`);
  return `${lines.join('\n')}\n`;
}

/** A rule's statuses over several runs, and how many times it flipped from one run to the next. */
export interface RuleFlips {
  readonly id: string;
  /** Its status in each report, in the order given. */
  readonly statuses: readonly DiffStatus[];
  /** How many of the runs after the first differ from the run before them. */
  readonly flips: number;
  /** Listed as known-flaky in the baseline given to `diff --baseline`. */
  readonly knownFlaky: boolean;
}

/** Several runs compared (`diff a b c …`): every rule that flipped at least once, most flips first, then catalog order. */
export interface FlipSummary {
  readonly runs: number;
  readonly flipped: readonly RuleFlips[];
  /** Rules that never changed status over the runs. */
  readonly stable: number;
}

/**
 * Counts, over reports of the same target in run order, the runs in which each rule's status differed from the run
 * before: a rule that flips is flaky (or was fixed, or broke); `knownFlaky` names the rules the baseline lists so.
 */
export function countFlips(reports: readonly ComparableReport[], knownFlaky: ReadonlySet<string> = new Set()): FlipSummary {
  const ids: string[] = [];
  const seen = new Set<string>();
  for (const report of reports) for (const rule of report.rules) if (!seen.has(rule.id)) seen.add(rule.id), ids.push(rule.id);
  const maps = reports.map((r) => new Map(r.rules.map((x) => [x.id, x.status])));
  const all = ids.map((id): RuleFlips => {
    const statuses = maps.map((m): DiffStatus => m.get(id) ?? 'absent');
    const flips = statuses.filter((s, i) => i > 0 && s !== statuses[i - 1]).length;
    return { id, statuses, flips, knownFlaky: knownFlaky.has(id) };
  });
  const flipped = all.filter((r) => r.flips > 0).sort((a, b) => b.flips - a.flips || ids.indexOf(a.id) - ids.indexOf(b.id));
  return { runs: reports.length, flipped, stable: all.length - flipped.length };
}

/** The flip counts as text: a line per rule that flipped (`API-05  2 of 3 runs flipped  pass fail pass pass`). */
export function renderFlips(summary: FlipSummary): string {
  const width = Math.max(0, ...summary.flipped.map((r) => r.id.length));
  const lines = summary.flipped.map((r) => `${r.id.padEnd(width)}  ${r.flips} of ${summary.runs - 1} runs flipped  ${r.statuses.join(' ')}${r.knownFlaky ? '  (known flaky)' : ''}`);
  if (lines.length > 0) lines.push('');
  const unexpected = summary.flipped.filter((r) => !r.knownFlaky).length;
  lines.push(summary.flipped.length === 0
    ? `no rule changed status over ${summary.runs} runs (${summary.stable} stable)`
    : `${summary.flipped.length} rule${summary.flipped.length === 1 ? '' : 's'} changed status over ${summary.runs} runs`
      + ` (${unexpected} not listed as known flaky), ${summary.stable} stable`);
  return `${lines.join('\n')}\n`;
}
