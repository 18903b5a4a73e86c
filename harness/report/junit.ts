import { areas } from '../catalog/index.ts';
import { isNotSelected } from './model.ts';
import type { CheckResult, Report, RuleResult } from './model.ts';
import { xmlAttribute, xmlText } from './xml.ts';

/**
 * `junit.xml`: one `testsuite` per rule area, one `testcase` per check (a test naming two rules is a testcase of
 * each, told apart by `classname` `<area>.<rule ID>`), and one skipped testcase for a rule without checks, so CI
 * shows every rule. A rule the run did not select is a skipped testcase whose message starts `not selected`, and each
 * suite's `not selected` property counts them (the suite's `skipped` count holds both: JUnit knows no other state).
 *
 * JUnit knows pass, failure, error and skipped only; the report's statuses map as follows:
 * `fail` → `<failure>` (with message, expected, actual, counterexample, seed and path, replay, evidence);
 * `error` → `<error>`; `skipped` and `not-applicable` → `<skipped>` (the message says which);
 * `warn` (a SHOULD) and `info` pass, their text in `<system-out>`, because neither fails the run.
 * A known failure (a rule the run's baseline lists) is `<skipped>` with the failure's text in `<system-out>`; a
 * listed failure that passed is a `<failure>` of a closing `baseline` test suite.
 */
export function renderJunit(report: Report): string {
  const suites = areas.map((area) => {
    const rules = report.rules.filter((r) => r.area === area.id);
    const cases = rules.flatMap(testcases);
    const count = (kind: Testcase['kind']) => cases.filter((c) => c.kind === kind).length;
    const time = seconds(rules.flatMap((r) => r.checks).reduce((sum, c) => sum + (c.durationMs ?? 0), 0));
    return {
      tests: cases.length,
      failures: count('failure'),
      errors: count('error'),
      skipped: count('skipped'),
      time,
      xml: [
        `  <testsuite name="${xmlAttribute(`${area.id} — ${area.title}`)}" id="${xmlAttribute(area.id)}" tests="${cases.length}"`
          + ` failures="${count('failure')}" errors="${count('error')}" skipped="${count('skipped')}" time="${time}"`
          + ` timestamp="${xmlAttribute(report.startedAt)}">`,
        '    <properties>',
        ...[
          ['target', `${report.target.name} (${report.target.kind})`],
          ['seed', String(report.seed)],
          ['runs', String(report.runs)],
          ['tool', `${report.tool.name} ${report.tool.version}`],
          ['not selected', String(rules.filter((r) => isNotSelected(r)).length)],
        ].map(([name = '', value = '']) => `      <property name="${xmlAttribute(name)}" value="${xmlAttribute(value)}"/>`),
        '    </properties>',
        ...cases.map((c) => c.xml),
        '  </testsuite>',
      ].join('\n'),
    };
  });
  if ((report.baseline?.messages.length ?? 0) > 0 || (report.gate?.messages.length ?? 0) > 0) suites.push(baselineSuite(report));
  const total = (key: 'tests' | 'failures' | 'errors' | 'skipped') => suites.reduce((sum, s) => sum + s[key], 0);
  const time = suites.reduce((sum, s) => sum + Number(s.time), 0).toFixed(3);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttribute(report.tool.name)}" tests="${total('tests')}" failures="${total('failures')}"`
      + ` errors="${total('errors')}" skipped="${total('skipped')}" time="${time}" timestamp="${xmlAttribute(report.startedAt)}">`,
    ...suites.map((s) => s.xml),
    '</testsuites>',
    '',
  ].join('\n');
}

/** A test suite with one failing testcase per listed known failure that passed, and per rule the gate did not accept. */
function baselineSuite(report: Report): { tests: number; failures: number; errors: number; skipped: number; time: string; xml: string } {
  const messages = [...(report.baseline?.messages ?? []).map((m) => [m, 'UNEXPECTED_PASS'] as const), ...(report.gate?.messages ?? []).map((m) => [m, 'NOT_CHECKED'] as const)];
  const file = report.baseline?.file ?? 'baseline';
  return {
    tests: messages.length,
    failures: messages.length,
    errors: 0,
    skipped: 0,
    time: '0.000',
    xml: [
      `  <testsuite name="${xmlAttribute(`baseline — ${file}`)}" id="baseline" tests="${messages.length}" failures="${messages.length}" errors="0" skipped="0" time="0.000"`
        + ` timestamp="${xmlAttribute(report.startedAt)}">`,
      ...messages.map(([m, type]) => `    <testcase classname="baseline" name="${xmlAttribute(m)}" time="0.000">\n`
        + `      <failure message="${xmlAttribute(m)}" type="${type}"/>\n    </testcase>`),
      '  </testsuite>',
    ].join('\n'),
  };
}

interface Testcase {
  readonly kind: 'passed' | 'failure' | 'error' | 'skipped';
  readonly xml: string;
}

function testcases(rule: RuleResult): Testcase[] {
  const classname = `${rule.area}.${rule.id}`;
  if (rule.checks.length === 0) {
    const message = isNotSelected(rule)
      ? 'not selected: the run did not select this rule (--suite, --only)'
      : `${rule.status}: ${rule.reason ?? 'no check ran'}`;
    return [{
      kind: 'skipped',
      xml: `    <testcase classname="${xmlAttribute(classname)}" name="${xmlAttribute(`${rule.id}: ${rule.statement}`)}" time="0.000">\n`
        + `      <skipped message="${xmlAttribute(message)}"/>\n    </testcase>`,
    }];
  }
  return rule.checks.map((check) => testcase(rule, classname, check));
}

function testcase(rule: RuleResult, classname: string, check: CheckResult): Testcase {
  const file = check.file === undefined ? '' : ` file="${xmlAttribute(check.file)}"`;
  const open = `    <testcase classname="${xmlAttribute(classname)}" name="${xmlAttribute(check.name)}"${file} time="${seconds(check.durationMs ?? 0)}"`;
  const wrap = (kind: Testcase['kind'], inner: string): Testcase => ({ kind, xml: `${open}>\n${inner}\n    </testcase>` });
  switch (check.status) {
    case 'pass':
      return { kind: 'passed', xml: `${open}/>` };
    case 'fail':
      if (rule.knownFailure || rule.knownFlaky) {
        const why = rule.knownFailure ? 'known failure' : 'known flaky';
        return wrap('skipped', `      <skipped message="${xmlAttribute(`${why} (listed in the baseline): ${firstLine(check.message)}`)}"/>\n`
          + `      <system-out>${xmlText(details(check))}</system-out>`);
      }
      return wrap('failure', `      <failure message="${xmlAttribute(firstLine(check.message))}" type="${rule.level}">${xmlText(details(check))}</failure>`);
    case 'warn':
      return wrap('passed', `      <system-out>${xmlText(`warning: ${rule.id} is a SHOULD rule, violated (the run does not fail)\n${details(check)}`)}</system-out>`);
    case 'info':
      return wrap('passed', `      <system-out>${xmlText(`${rule.id} (INFO): ${check.message}`)}</system-out>`);
    case 'skipped':
    case 'not-applicable':
      return wrap('skipped', `      <skipped message="${xmlAttribute(`${check.status}: ${check.message}`)}"/>`);
    case 'error':
      return wrap('error', `      <error message="${xmlAttribute(firstLine(check.message))}" type="${xmlAttribute(check.code)}">${xmlText(details(check))}</error>`);
  }
}

/** The full text of a failure, warning or error: everything needed to reproduce it. */
function details(check: CheckResult): string {
  if (check.status !== 'fail' && check.status !== 'warn' && check.status !== 'error') return '';
  const lines = [check.status === 'error' ? `${check.code}: ${check.message}` : check.message];
  if (check.status !== 'error') {
    if (check.expected !== undefined) lines.push(`expected: ${check.expected}`);
    if (check.actual !== undefined) lines.push(`actual: ${check.actual}`);
    if (check.counterexample !== undefined) lines.push(`counterexample: ${check.counterexample}`);
    if (check.seed !== undefined) lines.push(`seed: ${check.seed}${check.path ? `, path: ${check.path}` : ''}`);
    if (check.replay !== undefined) lines.push(`replay: ${check.replay}`);
  }
  if (check.evidence?.length) lines.push('evidence:', ...check.evidence.map((e) => e.replace(/^/gm, '  ')));
  return lines.join('\n');
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? '';
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}
