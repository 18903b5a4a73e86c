/**
 * The certification gate (`tds-conformance run --require-checked`, or `"requireChecked": true` in the baseline): a
 * run that left a selected rule unchecked does not pass. A selected rule that ends `skipped`, `not-applicable` or
 * `partial` fails the run (exit 1, and the message names it), unless the baseline lists it under `expectedSkips`
 * with its reason: like the OpenID conformance suite, which does not certify on modules no run exercised and keeps
 * expected skips apart from expected failures. Pure.
 */
import type { ExpectedSkip } from './baseline.ts';
import { EXIT_CODES } from './model.ts';
import type { GateSummary, Report, ReportExitCode, RuleResult, Status } from './model.ts';

/** The statuses the gate does not accept: the rule (or one of its clauses) was not checked. */
export const UNCHECKED_STATUSES: ReadonlySet<Status> = new Set(['skipped', 'not-applicable', 'partial']);

/** Why a rule was not fully checked, in a few words: its reason, or its unchecked clauses. */
function whyUnchecked(rule: RuleResult): string {
  if (rule.reason !== undefined) return rule.reason;
  const clauses = (rule.clauses ?? []).filter((c) => c.status === 'unchecked');
  if (clauses.length > 0) return `unchecked: ${clauses.map((c) => `${c.id}${c.reason ? ` (${c.reason})` : ''}`).join('; ')}`;
  const check = rule.checks.find((c) => 'message' in c && UNCHECKED_STATUSES.has(c.status));
  return check && 'message' in check ? check.message : rule.status;
}

/** The gate's outcome in one line, for the console of `run` and `merge`. */
export function gateLine(g: GateSummary): string {
  return `require-checked: ${g.unchecked.length === 0 ? 'every selected rule checked' : `${g.unchecked.length} selected rule${g.unchecked.length === 1 ? '' : 's'} not checked`}`
    + `, ${g.expectedSkips.length} expected skip${g.expectedSkips.length === 1 ? '' : 's'}`
    + (g.checkedAnyway.length > 0 ? ` (${g.checkedAnyway.join(', ')} listed as expected skips but checked: the baseline can drop them)` : '');
}

/** The message for a selected rule the gate does not accept. */
export function uncheckedMessage(rule: RuleResult, baselineFile: string | undefined): string {
  const where = baselineFile === undefined ? 'a baseline (--baseline)' : baselineFile;
  return `${rule.id} ended ${rule.status} (${whyUnchecked(rule)}): --require-checked needs every selected rule checked; `
    + `make the target able to check it, or list it under "expectedSkips" with a reason in ${where}`;
}

/**
 * Applies the gate to a report (after the baseline, if any): the report gets `gate` and the expected skips get
 * `expectedSkip: true`; any rule the gate does not accept makes the exit code 1 (3, unreachable, stays 3).
 *
 * @param expectedSkips the baseline's `expectedSkips`.
 * @param baselineFile the baseline's file, for messages.
 */
export function applyGate(
  report: Report,
  expectedSkips: readonly ExpectedSkip[],
  baselineFile?: string,
): { report: Report; exitCode: ReportExitCode; messages: readonly string[] } {
  const expected = new Map(expectedSkips.map((e) => [e.rule, e.reason]));
  const selected = new Set(report.selection);
  const unchecked: GateSummary['unchecked'][number][] = [];
  const accepted: GateSummary['expectedSkips'][number][] = [];
  const checkedAnyway: GateSummary['checkedAnyway'][number][] = [];
  const messages: string[] = [];
  const rules = report.rules.map((rule): RuleResult => {
    if (!selected.has(rule.id)) return rule;
    const reason = expected.get(rule.id);
    if (!UNCHECKED_STATUSES.has(rule.status)) {
      if (reason !== undefined && rule.status !== 'error') checkedAnyway.push(rule.id);
      return rule;
    }
    if (reason !== undefined) {
      accepted.push({ rule: rule.id, status: rule.status, reason });
      return { ...rule, expectedSkip: true };
    }
    unchecked.push({ rule: rule.id, status: rule.status, reason: whyUnchecked(rule) });
    messages.push(uncheckedMessage(rule, baselineFile));
    return rule;
  });
  const gate: GateSummary = { unchecked, expectedSkips: accepted, checkedAnyway, messages };
  const before = report.exitCode;
  const exitCode: ReportExitCode = unchecked.length > 0 && before === EXIT_CODES.ok ? EXIT_CODES.mustFailed : before;
  // The rules' statuses are unchanged by the gate: the report's exit code stands, raised to 1 by what is unchecked.
  return { report: { ...report, rules, gate, exitCode }, exitCode, messages };
}
