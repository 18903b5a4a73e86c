import { describe, expect, it } from 'vitest';
import { diffReports, parseReportJson, renderDiff } from './diff.ts';
import type { ComparableReport } from './diff.ts';
import { ReportFileError } from './errors.ts';
import { renderJson } from './json.ts';
import { sampleReport } from '../../test/support/report.ts';

const report = (rules: Record<string, ComparableReport['rules'][number]['status']>): ComparableReport => ({
  rules: Object.entries(rules).map(([id, status]) => ({ id, status })),
});

describe('diffReports', () => {
  it('lists the rules whose status changed, and counts by status', () => {
    const diff = diffReports(
      report({ 'REST-02': 'pass', 'REST-03': 'pass', 'ERR-01': 'fail', 'ERR-03': 'warn' }),
      report({ 'REST-02': 'pass', 'REST-03': 'fail', 'ERR-01': 'pass', 'ERR-03': 'warn' }),
    );
    expect(diff.changes).toEqual([{ id: 'REST-03', from: 'pass', to: 'fail' }, { id: 'ERR-01', from: 'fail', to: 'pass' }]);
    expect(diff.unchanged).toBe(2);
    expect(diff.counts).toEqual([
      { status: 'pass', before: 2, after: 2 }, { status: 'partial', before: 0, after: 0 }, { status: 'fail', before: 1, after: 1 }, { status: 'warn', before: 1, after: 1 },
      { status: 'info', before: 0, after: 0 }, { status: 'skipped', before: 0, after: 0 },
      { status: 'not-applicable', before: 0, after: 0 }, { status: 'error', before: 0, after: 0 }, { status: 'not-selected', before: 0, after: 0 },
    ]);
  });

  it('tells a rule the run did not select from a rule skipped for a reason (read from report.json)', () => {
    const before = parseReportJson(renderJson(sampleReport('x1x1', ['REST-02', 'REST-03', 'CRED-01'])), 'a.json');
    const after = parseReportJson(renderJson(sampleReport('x1x1')), 'b.json');
    expect(before.rules.find((r) => r.id === 'CRED-01')?.status).toBe('skipped');
    expect(before.rules.find((r) => r.id === 'CRED-02')?.status).toBe('not-selected');
    const diff = diffReports(before, after);
    // CRED-02 was not selected, then skipped (no check verifies it): a change, not the same "skipped".
    expect(diff.changes).toContainEqual({ id: 'CRED-02', from: 'not-selected', to: 'skipped' });
    expect(diff.counts.find((c) => c.status === 'skipped')).toEqual({ status: 'skipped', before: 1, after: 45 });
    expect(diff.counts.find((c) => c.status === 'not-selected')).toEqual({ status: 'not-selected', before: 48, after: 0 });
    expect(renderDiff(diff)).toContain(', error 0 → 1, not-selected 48 → 0\n');
    // A report written before the marker existed: skipped, "not selected", no checks.
    const old = parseReportJson(JSON.stringify({ rules: [{ id: 'REST-01', status: 'skipped', reason: 'not selected', checks: [] }] }), 'old.json');
    expect(old.rules[0]?.status).toBe('not-selected');
  });

  it('shows rules only one report has as absent in the other', () => {
    const diff = diffReports(report({ 'REST-02': 'pass', 'OLD-01': 'fail' }), report({ 'REST-02': 'pass', 'NEW-01': 'skipped' }));
    expect(diff.changes).toEqual([{ id: 'NEW-01', from: 'absent', to: 'skipped' }, { id: 'OLD-01', from: 'fail', to: 'absent' }]);
  });

  it('finds nothing between a report and itself', () => {
    const sample = parseReportJson(renderJson(sampleReport('x1x1')), 'a.json');
    expect(diffReports(sample, sample)).toMatchObject({ changes: [], unchanged: 51 });
  });
});

describe('renderDiff', () => {
  it('prints a line per change, the counts and a closing line', () => {
    const diff = diffReports(report({ 'REST-03': 'pass', 'ERR-01': 'fail', 'API-01': 'pass' }), report({ 'REST-03': 'fail', 'ERR-01': 'pass', 'API-01': 'error' }));
    expect(renderDiff(diff)).toBe([
      'REST-03  pass → fail',
      'ERR-01   fail → pass',
      'API-01   pass → error',
      '',
      'pass 2 → 1, partial 0, fail 1, warn 0, info 0, skipped 0, not-applicable 0, error 0 → 1',
      '3 rules changed status, 0 unchanged',
      '',
    ].join('\n'));
  });

  it('says when nothing changed', () => {
    expect(renderDiff(diffReports(report({ 'REST-03': 'pass' }), report({ 'REST-03': 'pass' })))).toBe(
      'pass 1, partial 0, fail 0, warn 0, info 0, skipped 0, not-applicable 0, error 0\nno rule changed status (1 unchanged)\n',
    );
  });
});

describe('parseReportJson', () => {
  const error = (text: string): ReportFileError => {
    try {
      parseReportJson(text, 'x.json');
    } catch (err) {
      if (err instanceof ReportFileError) return err;
      throw err;
    }
    throw new Error('no error');
  };
  const hint = 'give the report.json a run wrote (by default reports/latest/report.json)';

  it('reads the rules of a report', () => {
    expect(parseReportJson('{"rules":[{"id":"REST-03","status":"fail","checks":[]}]}', 'x.json')).toEqual(report({ 'REST-03': 'fail' }));
  });

  it('rejects what is not a report, saying so', () => {
    expect(error('nope').message).toMatch(/^"x\.json" is not valid JSON \(.+\); give the report\.json a run wrote/);
    expect(error('[]').message).toBe(`"x.json" is not a report.json of tds-conformance run: it is not a JSON object; ${hint}`);
    expect(error('{"name":"pkg"}').message).toBe(`"x.json" is not a report.json of tds-conformance run: it has no "rules" list; ${hint}`);
    expect(error('{"tool":{"name":"other"},"rules":[]}').message).toBe(`"x.json" is not a report.json of tds-conformance run: its "tool" is not tds-auth-conformance; ${hint}`);
    expect(error('{"rules":[{"id":"REST-03","status":"passed"}]}').message).toBe(
      `"x.json" is not a report.json of tds-conformance run: rules[0] has no rule "id" and "status" (one of pass, partial, fail, warn, info, skipped, not-applicable, error); ${hint}`,
    );
    expect(error('{"rules":[{"id":"A","status":"pass"},{"id":"A","status":"fail"}]}').message).toBe(`"x.json" is not a report.json of tds-conformance run: it lists A twice; ${hint}`);
    expect(error('[]')).toMatchObject({ code: 'REPORT_FILE_INVALID', file: 'x.json' });
  });
});
