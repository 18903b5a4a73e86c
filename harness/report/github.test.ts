import { describe, expect, it } from 'vitest';
import { applyBaseline } from './baseline.ts';
import { annotation, escapeData, escapeProperty, githubAnnotations } from './github.ts';
import { sampleReport } from '../../test/support/report.ts';

describe('escaping of workflow commands', () => {
  it('escapes %, carriage return and line feed in a message', () => {
    expect(escapeData('100% done\r\nnext: a, b')).toBe('100%25 done%0D%0Anext: a, b');
  });

  it('escapes : and , too in a property', () => {
    expect(escapeProperty('REST-03: 100%, a\nb')).toBe('REST-03%3A 100%25%2C a%0Ab');
  });

  it('builds one line per annotation', () => {
    expect(annotation('error', 'REST-03', 'x: y\nz')).toBe('::error title=REST-03::x: y%0Az');
    expect(annotation('warning', 'a,b', '50%')).toBe('::warning title=a%2Cb::50%25');
  });
});

describe('githubAnnotations', () => {
  const lines = githubAnnotations(sampleReport('not-really-secret'));

  it('annotates failed, warned and errored rules, then run errors, one line each', () => {
    expect(lines.map((l) => /^::(\w+) title=([^:]+)::/.exec(l)?.slice(1))).toEqual([
      ['error', 'REST-03'], ['warning', 'REST-05'], ['error', 'API-01'], ['error', 'run error TEST_FILE_FAILED'],
    ]);
    for (const line of lines) expect(line).not.toMatch(/[\r\n]/);
  });

  it('says what failed, with expected and actual values and the replay command', () => {
    const rest03 = lines[0] ?? '';
    expect(rest03.startsWith('::error title=REST-03::REST-03 (MUST) failed: A valid request is answered')).toBe(true);
    expect(rest03).toContain('%0A%0AREST-03: a valid request gets a token%0Aunexpected "token_type" value <bearer> | not-really-secret%0Aexpected: "bearer"%0Aactual: "Bearer" not-really-secret%0A');
    expect(rest03.endsWith("%0Areplay: npx tds-conformance run --only REST-03 --seed 42 --replay 'REST-03: a valid request gets a token@3:1'")).toBe(true);
    expect(lines[2]).toContain('API-01 (MUST) could not be checked: ');
    expect(lines[2]).toContain('%0AAPI-01: a bearer token works%0ATARGET_UNREACHABLE: cannot reach https://user:not-really-secret@cert.example');
  });

  it('makes known failures notices and unexpected passes errors', () => {
    const { report } = applyBaseline(sampleReport('x1x1'), { knownFailures: [{ rule: 'REST-03' }, { rule: 'REST-02' }] }, 'known.json');
    const annotated = githubAnnotations(report);
    expect(annotated[0]?.startsWith('::notice title=REST-03::REST-03 (MUST) failed (a known failure, listed in known.json): ')).toBe(true);
    expect(annotated).toContain('::error title=REST-02::REST-02 is listed as a known failure in known.json but passed: remove it from the baseline');
  });
});
