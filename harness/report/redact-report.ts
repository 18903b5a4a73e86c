import type { CheckResult, Report, RuleResult } from './model.ts';
import type { Redactor } from './redact.ts';

/**
 * Where redaction applies in a report. What a run observed (messages, evidence, expected and actual values,
 * counterexamples, reasons) is redacted by value and by pattern ({@link Redactor.redactDeep}). The report's static
 * strings are redacted by value only: check titles, replay commands, rule statements, their quotes of the interface
 * document and clause texts come from the
 * catalog and the suites, never from a target, and a pattern (`Basic <credentials>`) must not cut a title such as
 * "the client sends Authorization: Basic base64(…)" — a replay command that names a mangled title re-runs nothing.
 */
export function redactReport(report: Report, redactor: Redactor): Report {
  const deep = redactor.redactDeep(report);
  const byValue = (text: string) => redactor.redactValues(text);
  const check = (redacted: CheckResult, original: CheckResult): CheckResult => ({
    ...redacted,
    name: byValue(original.name),
    ...('replay' in original && typeof original.replay === 'string' && { replay: byValue(original.replay) }),
  });
  const rule = (redacted: RuleResult, original: RuleResult): RuleResult => ({
    ...redacted,
    statement: byValue(original.statement),
    ...(original.source && { source: { section: byValue(original.source.section), quote: byValue(original.source.quote) } }),
    ...(redacted.clauses && original.clauses && {
      clauses: redacted.clauses.map((c, i) => ({ ...c, text: byValue(original.clauses?.[i]?.text ?? c.text) })),
    }),
    checks: redacted.checks.map((c, i) => check(c, original.checks[i] ?? c)),
  });
  // A learned token shape is redacted by value only: its prefix and suffix are what four tokens or more had in common
  // (harness/sim/token-shape.ts), no token of the target, and a token pattern (`T1RLAQ…`) would turn the stand-in's
  // every token into "«redacted»…".
  const shape = report.profile?.values.tokenShape;
  const profile = deep.profile && shape ? { ...deep.profile, values: { ...deep.profile.values, tokenShape: Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, typeof v === 'string' ? byValue(v) : v])) as typeof shape } } : deep.profile;
  return {
    ...deep,
    ...(profile && { profile }),
    rules: deep.rules.map((r, i) => rule(r, report.rules[i] ?? r)),
    unmapped: deep.unmapped.map((u, i) => ({ ...u, name: byValue(report.unmapped[i]?.name ?? u.name) })),
  };
}
