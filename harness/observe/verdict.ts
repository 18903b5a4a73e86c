import type { Problem } from '../judges/index.ts';
/**
 * The verdict on one clause of a rule, judged from recorded traffic, and how verdicts become a report with the same
 * model as `run` (harness/report): one check per clause, titled `<rule ID>: <clause text> (observed)`.
 */
import { formatExchange } from '../checks/evidence.ts';
import { buildReport, type Report, type ReportTarget, type TestRecord, type RunError } from '../report/index.ts';
import { findClause, type RuleId } from '../catalog/index.ts';
import type { ObservedExchange } from './exchange.ts';

/** What one clause came to: held (with what was seen), broken (with the evidence), or not exercised (and why). */
export type ClauseVerdict =
  | { readonly clause: string; readonly status: 'pass'; readonly seen: string }
  | {
      readonly clause: string;
      readonly status: 'fail';
      readonly message: string;
      readonly expected?: string;
      readonly actual?: string;
      readonly evidence?: readonly string[];
    }
  | { readonly clause: string; readonly status: 'not-applicable'; readonly reason: string }
  /** Exercised, but the evidence falls short of the judge's own threshold: unchecked (the rule is `partial`), never `pass`. */
  | { readonly clause: string; readonly status: 'undecided'; readonly reason: string }
  /** Not judged for a missing prerequisite: `after` names the rules whose failure (or refusal) took it away. */
  | { readonly clause: string; readonly status: 'skipped'; readonly reason: string; readonly after: readonly RuleId[] }
  | { readonly clause: string; readonly status: 'info'; readonly observed: string; readonly publiclySeen?: string; readonly matchesPublic: boolean };

/** A clause's verdict as a failure, with the exchange that shows it as evidence. */
/** A judge's problem (harness/judges) as a broken clause, with the exchange (or exchanges) that show it. */
export function brokenBy(p: Problem, x?: ObservedExchange | readonly ObservedExchange[]): ClauseVerdict {
  return broken(p.clause, p.message, { expected: p.expected, actual: p.actual, ...(x && { x }) });
}

export function broken(clause: string, message: string, detail: { expected?: string | number | undefined; actual?: string | number | undefined; x?: ObservedExchange | readonly ObservedExchange[] } = {}): ClauseVerdict {
  const xs = detail.x === undefined ? [] : Array.isArray(detail.x) ? (detail.x as readonly ObservedExchange[]) : [detail.x as ObservedExchange];
  return {
    clause, status: 'fail', message,
    ...(detail.expected !== undefined && { expected: String(detail.expected) }),
    ...(detail.actual !== undefined && { actual: String(detail.actual) }),
    ...(xs.length > 0 && { evidence: xs.slice(0, 3).map(exchangeEvidence) }),
  };
}

export const held = (clause: string, seen: string): ClauseVerdict => ({ clause, status: 'pass', seen });
export const notSeen = (clause: string, reason: string): ClauseVerdict => ({ clause, status: 'not-applicable', reason });
export const undecided = (clause: string, reason: string): ClauseVerdict => ({ clause, status: 'undecided', reason });
export const skippedAfter = (clause: string, reason: string, after: readonly RuleId[]): ClauseVerdict => ({ clause, status: 'skipped', reason, after });

/** An exchange as report evidence (the report writers redact it). */
export function exchangeEvidence(x: ObservedExchange): string {
  const text = formatExchange({
    request: { method: x.request.method, url: x.request.url, headers: x.request.headers, body: x.request.body },
    ...(x.response && { response: { status: x.response.status, headers: x.response.headers, body: x.response.body, durationMs: Math.round(x.endedAt - x.startedAt) } }),
    ...(x.error !== undefined && { error: x.error }),
  });
  return `#${x.seq} ${x.env?.toUpperCase() ?? '(environment unknown)'}\n${text}`;
}

/** The file name a report gives the observed checks. */
export const OBSERVED_FILE = 'observed traffic';

/** One test record per clause verdict, the shape `buildReport` takes. */
export function toRecords(verdicts: readonly ClauseVerdict[]): TestRecord[] {
  return verdicts.map((v): TestRecord => {
    const found = findClause(v.clause);
    if (!found) throw new Error(`the observed verdict names the clause "${v.clause}", which the catalog does not have`);
    const title = `${found.rule.id}: ${found.clause.text.replace(/\.$/, '')} (observed)`;
    const clauses = { declared: [v.clause], unchecked: [] };
    const base = { title, file: OBSERVED_FILE, errors: [], durationMs: 0 };
    switch (v.status) {
      case 'pass':
        return { ...base, state: 'passed', meta: { clauses } };
      case 'info':
        return {
          ...base, state: 'passed',
          meta: { clauses, outcome: { kind: 'info', observed: v.observed, matchesPublic: v.matchesPublic, ...(v.publiclySeen !== undefined && { publiclySeen: v.publiclySeen }) } },
        };
      case 'not-applicable':
        return { ...base, state: 'skipped', meta: { clauses, outcome: { kind: 'not-applicable', reason: v.reason } } };
      case 'undecided':
        return { ...base, state: 'passed', meta: { clauses: { declared: [v.clause], unchecked: [{ id: v.clause, reason: v.reason }] } } };
      case 'skipped':
        return { ...base, state: 'skipped', meta: { clauses, outcome: { kind: 'skipped', reason: v.reason, after: [...v.after] } } };
      case 'fail':
        return {
          ...base, state: 'failed', errors: [{ message: v.message }],
          meta: {
            clauses,
            failure: {
              message: v.message,
              ...(v.expected !== undefined && { expected: v.expected }),
              ...(v.actual !== undefined && { actual: v.actual }),
              ...(v.evidence && { evidence: v.evidence }),
            },
          },
        };
    }
  });
}

export interface ObservedReportOptions {
  readonly toolVersion: string;
  readonly target: ReportTarget;
  readonly startedAt: string;
  readonly finishedAt: string;
  /** The rules judged (every other rule is `skipped`, not selected). */
  readonly selection: readonly RuleId[];
  readonly completion?: 'complete' | 'interrupted';
  /** What went wrong outside the rules: the upstream left requests unanswered (TARGET_UNREACHABLE, exit code 3). */
  readonly runErrors?: readonly RunError[];
}

/** The report of an observation: the report model of `run`, so every writer works on it. */
export function observedReport(verdicts: readonly ClauseVerdict[], options: ObservedReportOptions): Report {
  return buildReport(toRecords(verdicts), {
    toolVersion: options.toolVersion,
    target: options.target,
    seed: 0,
    runs: 0,
    selection: options.selection,
    startedAt: options.startedAt,
    finishedAt: options.finishedAt,
    completion: options.completion ?? 'complete',
    ...(options.runErrors && { runErrors: options.runErrors }),
  });
}
