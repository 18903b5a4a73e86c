import { describe, expect, it } from 'vitest';
import { renderJson } from './json.ts';
import { sampleReport } from '../../test/support/report.ts';

describe('renderJson', () => {
  const report = sampleReport('not-really-secret');
  const parsed = JSON.parse(renderJson(report)) as Record<string, unknown>;

  it('writes the report as it is, indented, with a final newline', () => {
    const text = renderJson(report);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.startsWith('{\n  "schemaVersion": 1,\n  "tool": {')).toBe(true);
    expect(parsed).toEqual(JSON.parse(JSON.stringify(report)));
  });

  it('has the documented top-level fields, in order', () => {
    expect(Object.keys(parsed)).toEqual([
      'schemaVersion', 'tool', 'target', 'startedAt', 'finishedAt', 'seed', 'runs', 'completion', 'exitCode', 'selection',
      'summary', 'resources', 'rules', 'unmapped', 'runErrors',
    ]);
    expect(parsed['tool']).toEqual({ name: 'tds-auth-conformance', version: '0.1.0' });
    expect(parsed['target']).toEqual({ name: 'simulator', kind: 'sim' });
    expect(Object.keys(parsed['summary'] as object)).toEqual(['pass', 'partial', 'fail', 'warn', 'info', 'skipped', 'notApplicable', 'error', 'notSelected']);
    expect(parsed['resources']).toEqual({ tokens: 0, sessionsOpened: 0, sessionsClosed: 0 });
  });

  it('has the documented fields on rules and checks, and no empty ones', () => {
    const rules = parsed['rules'] as Record<string, unknown>[];
    const rest03 = rules.find((r) => r['id'] === 'REST-03');
    expect(Object.keys(rest03 ?? {})).toEqual(['id', 'side', 'level', 'where', 'area', 'statement', 'source', 'status', 'clauses', 'checks']);
    // The rule's sentence of the interface document, as the catalog quotes it.
    expect(rest03?.['source']).toMatchObject({ section: expect.any(String), quote: expect.stringContaining('token_type') });
    const [check] = (rest03?.['checks'] ?? []) as Record<string, unknown>[];
    expect(Object.keys(check ?? {}).sort()).toEqual(
      ['actual', 'counterexample', 'durationMs', 'evidence', 'expected', 'file', 'message', 'name', 'path', 'replay', 'seed', 'status'],
    );
    const skipped = rules.find((r) => r['id'] === 'CRED-01');
    expect(skipped).toMatchObject({ status: 'skipped', reason: 'no check verifies this rule yet', checks: [] });
    const passed = rules.find((r) => r['id'] === 'REST-02');
    expect((passed?.['checks'] as object[])[0]).toEqual({ name: 'REST-02: source_ip is optional', file: 'suites/service/x.test.ts', durationMs: 5, status: 'pass' });
  });
});
