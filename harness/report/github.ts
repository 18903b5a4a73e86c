/**
 * GitHub Actions annotations of a run: workflow commands (`::error title=REST-03::…`) that GitHub shows on the run's
 * summary page. The CLI prints them on standard output when `GITHUB_ACTIONS=true`.
 *
 * @see https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands
 */
import type { CheckResult, Report, RuleResult } from './model.ts';

/**
 * The message of a workflow command: `%`, carriage return and line feed escaped (`%25`, `%0D`, `%0A`), as the
 * runner unescapes them (actions/toolkit `escapeData`).
 */
export function escapeData(text: string): string {
  return text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/** A property value of a workflow command: as {@link escapeData}, and `:` and `,` too (`%3A`, `%2C`). */
export function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

export type AnnotationLevel = 'error' | 'warning' | 'notice';

/** One workflow command line: `::<level> title=<title>::<message>`. */
export function annotation(level: AnnotationLevel, title: string, message: string): string {
  return `::${level} title=${escapeProperty(title)}::${escapeData(message)}`;
}

/**
 * The annotations of a report, one per rule that needs a look, in catalog order, then the baseline's and the run's
 * errors:
 * - a failed MUST rule → `error`; a SHOULD rule not met → `warning`; a rule whose check could not be carried out →
 *   `error`; a known failure (listed in the baseline) → `notice`;
 * - a listed known failure that passed → `error` (it fails the run);
 * - a run error (a test file that did not load, an interruption) → `error`.
 *
 * The title is the rule ID; the message says what failed, with expected and actual values and the replay command.
 * The report is expected to be redacted already (as `runConformance` returns it).
 */
export function githubAnnotations(report: Report): string[] {
  const lines: string[] = [];
  for (const rule of report.rules) {
    if (rule.status !== 'fail' && rule.status !== 'warn' && rule.status !== 'error') continue;
    const level: AnnotationLevel = rule.knownFailure || rule.knownFlaky ? 'notice' : rule.status === 'warn' ? 'warning' : 'error';
    lines.push(annotation(level, rule.id, ruleMessage(rule, report.baseline?.file)));
  }
  for (const message of [...(report.baseline?.messages ?? []), ...(report.gate?.messages ?? [])]) {
    lines.push(annotation('error', /^[A-Z]+-\d\d\b/.exec(message)?.[0] ?? 'baseline', message));
  }
  for (const error of report.runErrors) lines.push(annotation('error', `run error ${error.code}`, error.message));
  return lines;
}

function ruleMessage(rule: RuleResult, baselineFile: string | undefined): string {
  const verdict = rule.status === 'fail' ? 'failed' : rule.status === 'warn' ? 'not met' : 'could not be checked';
  const known = rule.knownFailure ? ` (a known failure, listed in ${baselineFile ?? 'the baseline'})`
    : rule.knownFlaky ? ` (known flaky, listed in ${baselineFile ?? 'the baseline'}: does not fail the run)` : '';
  const head = `${rule.id} (${rule.level}) ${verdict}${known}: ${rule.statement}`;
  const checks = rule.checks.filter((c) => c.status === rule.status).map(checkText);
  if (checks.length === 0 && rule.reason !== undefined) checks.push(rule.reason);
  return [head, ...checks].join('\n\n');
}

function checkText(check: CheckResult): string {
  if (check.status === 'pass') return check.name;
  const lines = [check.name, check.status === 'error' ? `${check.code}: ${check.message}` : check.message];
  if (check.status === 'fail' || check.status === 'warn') {
    if (check.expected !== undefined) lines.push(`expected: ${check.expected}`);
    if (check.actual !== undefined) lines.push(`actual: ${check.actual}`);
    if (check.counterexample !== undefined) lines.push(`counterexample: ${check.counterexample}`);
    if (check.replay !== undefined) lines.push(`replay: ${check.replay}`);
  }
  return lines.join('\n');
}
