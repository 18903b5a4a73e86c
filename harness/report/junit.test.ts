import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { areas, rules } from '../catalog/index.ts';
import { applyBaseline } from './baseline.ts';
import { renderJunit } from './junit.ts';
import { sampleReport } from '../../test/support/report.ts';

type Node = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseAttributeValue: false,
  parseTagValue: false,
  htmlEntities: true,
  trimValues: false,
  isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name),
});

/** What fast-xml-parser's validator lets through but XML 1.0 forbids: bad characters and stray ampersands. */
function expectStrictlyWellFormed(xml: string): void {
  expect(XMLValidator.validate(xml)).toBe(true);
  expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/);
  expect(xml).not.toMatch(/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/);
  expect(xml).not.toMatch(/="[^"]*</);
}

describe('renderJunit', () => {
  const secret = 'not-really-secret';
  const report = sampleReport(secret);
  const xml = renderJunit(report);
  const doc = parser.parse(xml) as Node;
  const root = doc['testsuites'] as Node;
  const suites = root['testsuite'] as Node[];
  const cases = suites.flatMap((s) => s['testcase'] as Node[]);
  const find = (classname: string) => cases.filter((c) => c['@classname'] === classname);

  it('is well-formed XML', () => {
    expectStrictlyWellFormed(xml);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')).toBe(true);
  });

  it('has one testsuite per rule area with consistent counts', () => {
    expect(suites.map((s) => s['@id'])).toEqual(areas.map((a) => a.id));
    expect(suites[0]?.['@name']).toBe('CRED — building REST credentials');
    for (const suite of suites) {
      const own = suite['testcase'] as Node[];
      expect(Number(suite['@tests'])).toBe(own.length);
      expect(Number(suite['@failures'])).toBe(own.filter((c) => 'failure' in c).length);
      expect(Number(suite['@errors'])).toBe(own.filter((c) => 'error' in c).length);
      expect(Number(suite['@skipped'])).toBe(own.filter((c) => 'skipped' in c).length);
    }
    expect(root).toMatchObject({ '@tests': String(cases.length), '@failures': '1', '@errors': '1' });
    expect(Number(root['@skipped'])).toBe(rules.length - 5); // all but REST-02, REST-03, REST-05, API-01, ERR-05
  });

  it('writes one testcase per check, and one skipped testcase for a rule without checks', () => {
    expect(find('REST.REST-02')).toEqual([{ '@classname': 'REST.REST-02', '@name': 'REST-02: source_ip is optional', '@file': 'suites/service/x.test.ts', '@time': '0.005' }]);
    const [cred01] = find('CRED.CRED-01');
    expect(cred01?.['@name']).toBe(`CRED-01: ${rules[0]?.statement}`);
    expect(cred01?.['skipped']).toEqual({ '@message': 'skipped: no check verifies this rule yet' });
    expect(find('LIFE.LIFE-01')[0]?.['skipped']).toEqual({ '@message': 'not-applicable: needs clock control' });
  });

  it('tells a rule the run did not select from a rule skipped for a reason, and counts them per suite', () => {
    const selected = parser.parse(renderJunit(sampleReport(secret, ['REST-02', 'REST-03', 'CRED-01']))) as Node;
    const all = ((selected['testsuites'] as Node)['testsuite'] as Node[]);
    const of = (classname: string) => all.flatMap((s) => s['testcase'] as Node[]).find((c) => c['@classname'] === classname);
    expect(of('CRED.CRED-01')?.['skipped']).toEqual({ '@message': 'skipped: no check verifies this rule yet' });
    expect(of('CRED.CRED-02')?.['skipped']).toEqual({ '@message': 'not selected: the run did not select this rule (--suite, --only)' });
    const property = (suite: Node | undefined) => ((suite?.['properties'] as Node)['property'] as Node[]).find((p) => p['@name'] === 'not selected')?.['@value'];
    expect(property(all.find((s) => s['@id'] === 'CRED'))).toBe(String(rules.filter((r) => r.area === 'CRED').length - 1));
    expect(property(all.find((s) => s['@id'] === 'REST'))).toBe('3');
    expect(property(suites.find((s) => s['@id'] === 'REST'))).toBe('0');
  });

  it('writes a failure with its message, expected, actual, counterexample and replay, escaped and read back intact', () => {
    const failure = find('REST.REST-03')[0]?.['failure'] as Node;
    expect(failure['@type']).toBe('MUST');
    expect(failure['@message']).toBe(`unexpected "token_type" value <bearer> | ${secret}`);
    const text = failure['#text'] as string;
    expect(text).toContain('expected: "bearer"');
    expect(text).toContain(`actual: "Bearer" ${secret}`);
    expect(text).toContain(`counterexample: [{"password":"${secret}"}]`);
    expect(text).toContain('seed: 42, path: 3:1');
    expect(text).toContain("replay: npx tds-conformance run --only REST-03 --seed 42 --replay 'REST-03: a valid request gets a token@3:1'");
    expect(text).toContain(`  <wsse:Password>${secret}</wsse:Password> & "quotes" ]]> \uFFFD \`\`\` fence`);
  });

  it('writes errors as <error>, warnings and observations as passing testcases with output', () => {
    expect(find('API.API-01')[0]?.['error']).toMatchObject({ '@type': 'TARGET_UNREACHABLE', '@message': `cannot reach https://user:${secret}@cert.example` });
    const warn = find('REST.REST-05')[0];
    expect(warn && ('failure' in warn || 'error' in warn)).toBe(false);
    expect(warn?.['system-out']).toContain('warning: REST-05 is a SHOULD rule');
    expect(find('ERR.ERR-05')[0]?.['system-out']).toBe('ERR-05 (INFO): observed: 500 (publicly seen: 500; the same)');
  });

  it('keeps line breaks of attribute values', () => {
    const multi = renderJunit({ ...report, rules: report.rules.map((r) => (r.id === 'REST-04' ? { ...r, reason: 'one\ntwo' } : r)) });
    const again = parser.parse(multi) as Node;
    const all = ((again['testsuites'] as Node)['testsuite'] as Node[]).flatMap((s) => s['testcase'] as Node[]);
    expect(all.find((c) => c['@classname'] === 'REST.REST-04')?.['skipped']).toEqual({ '@message': 'skipped: one\ntwo' });
  });

  it('skips a known failure and fails a baseline suite for a listed failure that passed', () => {
    const { report: judged } = applyBaseline(report, { knownFailures: [{ rule: 'REST-03' }, { rule: 'REST-02' }] }, 'known.json');
    const known = renderJunit(judged);
    expectStrictlyWellFormed(known);
    const again = ((parser.parse(known) as Node)['testsuites'] as Node);
    const all = (again['testsuite'] as Node[]).flatMap((s) => s['testcase'] as Node[]);
    const rest03 = all.find((c) => c['@classname'] === 'REST.REST-03');
    expect(rest03?.['skipped']).toEqual({ '@message': `known failure (listed in the baseline): unexpected "token_type" value <bearer> | ${secret}` });
    expect(rest03?.['system-out']).toContain('expected: "bearer"');
    const baseline = (again['testsuite'] as Node[]).at(-1);
    expect(baseline).toMatchObject({ '@id': 'baseline', '@name': 'baseline — known.json', '@tests': '1', '@failures': '1' });
    const message = 'REST-02 is listed as a known failure in known.json but passed: remove it from the baseline';
    expect((baseline?.['testcase'] as Node[])[0]).toMatchObject({ '@classname': 'baseline', '@name': message, failure: { '@message': message, '@type': 'UNEXPECTED_PASS' } });
    // REST-03's failure became a skip, the unexpected pass a failure.
    expect(again['@failures']).toBe(root['@failures']);
    expect(again['@skipped']).toBe(String(Number(root['@skipped']) + 1));
  });
});
