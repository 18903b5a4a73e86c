import { describe, expect, it } from 'vitest';
import { rules as catalog } from '../catalog/index.ts';
import { applyBaseline } from './baseline.ts';
import { EARL_CONTEXT, earlDocument, earlOutcome, renderEarl, ruleIri } from './earl.ts';
import { STATUSES } from './model.ts';
import { sampleReport } from '../../test/support/report.ts';

interface Assertion {
  '@type': string;
  'earl:assertedBy': { '@id': string };
  'earl:subject': { '@id': string };
  'earl:test': { '@id': string; '@type': string; 'dct:identifier': string; 'dct:title': string; 'dct:description': string };
  'earl:mode': { '@id': string };
  'earl:result': { '@type': string; 'earl:outcome': { '@id': string }; 'dct:date': unknown; 'dct:description': string; 'earl:info'?: string };
}

const graphOf = (doc: Record<string, unknown>) => doc['@graph'] as Record<string, unknown>[];
const assertions = (doc: Record<string, unknown>) => graphOf(doc).filter((n) => n['@type'] === 'earl:Assertion') as unknown as Assertion[];
const assertionFor = (doc: Record<string, unknown>, id: string): Assertion => {
  const found = assertions(doc).find((a) => a['earl:test']['dct:identifier'] === id);
  if (!found) throw new Error(`no assertion for ${id}`);
  return found;
};

describe('earlOutcome', () => {
  it('maps every status to an EARL outcome', () => {
    expect(STATUSES.map(earlOutcome)).toEqual([
      'earl:passed', 'earl:cantTell', 'earl:failed', 'earl:failed', 'earl:cantTell', 'earl:untested', 'earl:inapplicable', 'earl:cantTell',
    ]);
  });
});

describe('earlDocument', () => {
  const doc = earlDocument(sampleReport('not-really-secret'));

  it('declares the EARL vocabulary and names the assertor and the subject', () => {
    expect(doc['@context']).toEqual(EARL_CONTEXT);
    expect(EARL_CONTEXT.earl).toBe('http://www.w3.org/ns/earl#');
    expect(graphOf(doc)[0]).toEqual({
      '@id': '_:assertor',
      '@type': ['earl:Assertor', 'earl:Software', 'doap:Project'],
      'doap:name': 'tds-auth-conformance',
      'dct:title': 'tds-auth-conformance',
      'doap:release': { '@type': 'doap:Version', 'doap:revision': '0.1.0' },
    });
    expect(graphOf(doc)[1]).toEqual({
      '@id': '_:subject', '@type': 'earl:TestSubject', 'dct:title': 'simulator', 'dct:description': 'the built-in simulator of the service',
    });
  });

  it('has one assertion per catalog rule, by this tool about the target', () => {
    const all = assertions(doc);
    expect(all.map((a) => a['earl:test']['dct:identifier'])).toEqual(catalog.map((r) => r.id));
    for (const a of all) {
      expect(a['earl:assertedBy']).toEqual({ '@id': '_:assertor' });
      expect(a['earl:subject']).toEqual({ '@id': '_:subject' });
      expect(a['earl:mode']).toEqual({ '@id': 'earl:automatic' });
      expect(a['earl:result']['dct:date']).toEqual({ '@value': '2025-01-01T00:01:00.000Z', '@type': 'xsd:dateTime' });
    }
  });

  it('gives each rule its outcome, and a failure its details', () => {
    const outcome = (id: string) => assertionFor(doc, id)['earl:result']['earl:outcome']['@id'];
    expect(['REST-02', 'REST-03', 'REST-05', 'API-01', 'LIFE-01', 'ERR-05', 'CRED-01'].map(outcome)).toEqual([
      'earl:passed', 'earl:failed', 'earl:failed', 'earl:cantTell', 'earl:inapplicable', 'earl:cantTell', 'earl:untested',
    ]);
    const rest03 = assertionFor(doc, 'REST-03');
    expect(rest03['earl:test']).toMatchObject({ '@id': ruleIri('REST-03'), '@type': 'earl:TestRequirement', 'dct:title': 'REST-03 (MUST, service)' });
    expect(rest03['earl:test']['dct:description']).toBe(catalog.find((r) => r.id === 'REST-03')?.statement);
    expect(rest03['earl:result']['dct:description']).toBe('fail: a MUST rule is not met');
    expect(rest03['earl:result']['earl:info']).toContain('expected: "bearer"\nactual: "Bearer" not-really-secret');
    expect(rest03['earl:result']['earl:info']).toContain("replay: npx tds-conformance run --only REST-03 --seed 42 --replay 'REST-03: a valid request gets a token@3:1'");
    expect(assertionFor(doc, 'REST-02')['earl:result']).not.toHaveProperty('earl:info');
    expect(assertionFor(doc, 'CRED-01')['earl:result']['dct:description']).toBe('skipped: no check verifies this rule yet');
  });

  it('says when a rule was not selected, apart from a rule skipped for a reason', () => {
    const selected = earlDocument(sampleReport('x1x1', ['REST-02', 'CRED-01']));
    expect(assertionFor(selected, 'CRED-01')['earl:result']['dct:description']).toBe('skipped: no check verifies this rule yet');
    expect(assertionFor(selected, 'REST-03')['earl:result']).toMatchObject({ 'earl:outcome': { '@id': 'earl:untested' }, 'dct:description': 'not selected: the run did not select this rule' });
  });

  it('says when a failure is a known one', () => {
    const { report } = applyBaseline(sampleReport('x1x1'), { knownFailures: [{ rule: 'REST-03' }] }, 'known.json');
    expect(assertionFor(earlDocument(report), 'REST-03')['earl:result']['dct:description'])
      .toBe('fail: a MUST rule is not met (a known failure, listed in the baseline)');
  });

  it('is written as indented JSON', () => {
    const text = renderEarl(sampleReport('x1x1'));
    expect(text.endsWith('\n')).toBe(true);
    expect(JSON.parse(text)).toEqual(earlDocument(sampleReport('x1x1')));
  });
});
