/**
 * `report.earl.jsonld`: the report in W3C's Evaluation and Report Language (EARL 1.0), as JSON-LD, for tools that
 * aggregate conformance results across implementations (implementation reports).
 *
 * One `earl:Assertion` per catalog rule: asserted by this tool (`earl:assertedBy`, an `earl:Software`), about the
 * target (`earl:subject`, an `earl:TestSubject`), for the rule (`earl:test`, an `earl:TestRequirement` with the rule
 * ID and statement), with an `earl:TestResult` whose `earl:outcome` maps the rule's status:
 *
 * | status | outcome |
 * |---|---|
 * | `pass` | `earl:passed` |
 * | `fail`, `warn` | `earl:failed` (a MUST, or a SHOULD, is not met) |
 * | `info`, `error` | `earl:cantTell` (an observation; a check that could not be carried out) |
 * | `not-applicable` | `earl:inapplicable` |
 * | `skipped` | `earl:untested` (a rule the run did not select too; its description says `not selected`) |
 *
 * @see https://www.w3.org/TR/EARL10-Schema/
 * @see https://www.w3.org/TR/json-ld11/
 */
import { isNotSelected } from './model.ts';
import type { CheckResult, Report, RuleResult, Status } from './model.ts';

/** The JSON-LD context: the EARL, Dublin Core terms, DOAP and XML Schema vocabularies. */
export const EARL_CONTEXT = {
  earl: 'http://www.w3.org/ns/earl#',
  dct: 'http://purl.org/dc/terms/',
  doap: 'http://usefulinc.com/ns/doap#',
  foaf: 'http://xmlns.com/foaf/0.1/',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
} as const;

export type EarlOutcome = 'earl:passed' | 'earl:failed' | 'earl:cantTell' | 'earl:inapplicable' | 'earl:untested';

const OUTCOMES: Record<Status, EarlOutcome> = {
  pass: 'earl:passed',
  partial: 'earl:cantTell',
  fail: 'earl:failed',
  warn: 'earl:failed',
  info: 'earl:cantTell',
  error: 'earl:cantTell',
  'not-applicable': 'earl:inapplicable',
  skipped: 'earl:untested',
};

/** The EARL outcome of a rule status. */
export function earlOutcome(status: Status): EarlOutcome {
  return OUTCOMES[status];
}

/** The IRI of a rule, as the `@id` of its `earl:TestRequirement`. */
export function ruleIri(id: string): string {
  return `urn:tds-auth-conformance:rule:${id}`;
}

const ASSERTOR = '_:assertor';
const SUBJECT = '_:subject';

/** The report as an EARL JSON-LD document (a plain object; see {@link renderEarl} for its text). */
export function earlDocument(report: Report): Record<string, unknown> {
  const assertor = {
    '@id': ASSERTOR,
    '@type': ['earl:Assertor', 'earl:Software', 'doap:Project'],
    'doap:name': report.tool.name,
    'dct:title': report.tool.name,
    'doap:release': { '@type': 'doap:Version', 'doap:revision': report.tool.version },
  };
  const subject = {
    '@id': SUBJECT,
    '@type': 'earl:TestSubject',
    'dct:title': report.target.name,
    'dct:description': report.target.kind === 'sim'
      ? 'the built-in simulator of the service'
      : `a live target (${report.target.name})`,
  };
  const assertions = report.rules.map((rule) => assertion(report, rule));
  return {
    '@context': EARL_CONTEXT,
    '@graph': [assertor, subject, ...assertions],
  };
}

/** `report.earl.jsonld`: {@link earlDocument} as indented JSON, ending with a newline. */
export function renderEarl(report: Report): string {
  return `${JSON.stringify(earlDocument(report), null, 2)}\n`;
}

function assertion(report: Report, rule: RuleResult): Record<string, unknown> {
  const info = details(rule);
  return {
    '@type': 'earl:Assertion',
    'earl:assertedBy': { '@id': ASSERTOR },
    'earl:subject': { '@id': SUBJECT },
    'earl:test': {
      '@id': ruleIri(rule.id),
      '@type': 'earl:TestRequirement',
      'dct:identifier': rule.id,
      'dct:title': `${rule.id} (${rule.level}, ${rule.side})`,
      'dct:description': rule.statement,
    },
    'earl:mode': { '@id': 'earl:automatic' },
    'earl:result': {
      '@type': 'earl:TestResult',
      'earl:outcome': { '@id': earlOutcome(rule.status) },
      'dct:date': { '@value': report.finishedAt, '@type': 'xsd:dateTime' },
      'dct:description': description(rule),
      ...(info !== '' && { 'earl:info': info }),
    },
  };
}

/** One line: the status and what it rests on. */
function description(rule: RuleResult): string {
  const known = rule.knownFailure ? ' (a known failure, listed in the baseline)' : '';
  const checks = rule.checks.length;
  const counted = `${checks} check${checks === 1 ? '' : 's'}`;
  switch (rule.status) {
    case 'pass': return `pass: ${counted} passed`;
    case 'partial': return `partial: ${counted} passed, but not every clause could be checked on this target: ${rule.reason ?? ''}`.trimEnd();
    case 'fail': return `fail: a MUST rule is not met${known}`;
    case 'warn': return `warn: a SHOULD rule is not met${known}`;
    case 'info': return 'info: an observation, not a verdict';
    case 'error': return `error: the check could not be carried out: ${rule.reason ?? ''}`.trimEnd();
    case 'not-applicable': return `not applicable: ${rule.reason ?? ''}`.trimEnd();
    case 'skipped': return isNotSelected(rule) ? 'not selected: the run did not select this rule' : `skipped: ${rule.reason ?? ''}`.trimEnd();
  }
}

/** The non-passing checks, with what reproduces them. */
function details(rule: RuleResult): string {
  return rule.checks.filter((c) => c.status !== 'pass').map(checkText).filter((t) => t !== '').join('\n\n');
}

function checkText(check: CheckResult): string {
  if (check.status === 'pass') return '';
  const lines = [`${check.name}: ${check.status}`];
  if (check.status === 'error') lines.push(`${check.code}: ${check.message}`);
  else lines.push(check.message);
  if (check.status === 'fail' || check.status === 'warn') {
    if (check.expected !== undefined) lines.push(`expected: ${check.expected}`);
    if (check.actual !== undefined) lines.push(`actual: ${check.actual}`);
    if (check.counterexample !== undefined) lines.push(`counterexample: ${check.counterexample}`);
    if (check.seed !== undefined) lines.push(`seed: ${check.seed}${check.path ? `, path: ${check.path}` : ''}`);
    if (check.replay !== undefined) lines.push(`replay: ${check.replay}`);
  }
  return lines.join('\n');
}
