import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ReportFileError } from '../report/errors.ts';
import { renderJson } from '../report/json.ts';
import type { Report } from '../report/model.ts';
import { sampleReport } from '../../test/support/report.ts';
import { diffCommand, readReportFile } from './diff.ts';
import { UsageError } from './usage-error.ts';

describe('tds-conformance diff', () => {
  let dir: string;
  let before: string;
  let after: string;
  let output: string[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tds-diff-'));
    const report = sampleReport('x1x1');
    const changed: Report = {
      ...report,
      rules: report.rules.map((r) => (r.id === 'REST-02' ? { ...r, status: 'fail' } : r.id === 'REST-03' ? { ...r, status: 'pass' } : r)),
    };
    await mkdir(join(dir, 'b'));
    before = join(dir, 'a.json');
    after = join(dir, 'b', 'report.json');
    await writeFile(before, renderJson(report));
    await writeFile(after, renderJson(changed));
    await writeFile(join(dir, 'package.json'), '{"name":"x"}');
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  const capture = () => {
    output = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      output.push(String(chunk));
      return true;
    });
  };

  it('prints the changed rules and exits 1', async () => {
    capture();
    expect(await diffCommand([before, after])).toBe(1);
    expect(output.join('')).toBe([
      'REST-02  pass → fail',
      'REST-03  fail → pass',
      '',
      'pass 1, partial 0, fail 1, warn 1, info 1, skipped 45, not-applicable 1, error 1',
      '2 rules changed status, 49 unchanged',
      '',
    ].join('\n'));
  });

  it('exits 0 when nothing changed, and reads the report.json of a directory', async () => {
    capture();
    expect(await diffCommand([after, join(dir, 'b')])).toBe(0);
    expect(output.join('')).toContain('no rule changed status (51 unchanged)\n');
  });

  it('fails with REPORT_FILE_NOT_FOUND or REPORT_FILE_INVALID for a bad file', async () => {
    const missing = join(dir, 'nope.json');
    await expect(readReportFile(missing)).rejects.toEqual(new ReportFileError(
      'REPORT_FILE_NOT_FOUND', missing,
      `"${missing}" does not exist; give the report.json files of two runs (tds-conformance run --out <dir> writes <dir>/report.json)`,
    ));
    await expect(diffCommand([join(dir, 'package.json'), after])).rejects.toMatchObject({ code: 'REPORT_FILE_INVALID' });
    await expect(readReportFile(dir)).rejects.toMatchObject({ code: 'REPORT_FILE_NOT_FOUND', file: join(dir, 'report.json') });
  });

  it('wants two files or more', async () => {
    await expect(diffCommand([before])).rejects.toEqual(new UsageError(
      'diff compares two reports or more: "tds-conformance diff <before/report.json> <after/report.json> [<more/report.json> …]" (got 1 argument).',
    ));
  });

  it('over several runs, counts the runs each rule flipped in; known-flaky rules of --baseline are marked and do not fail', async () => {
    // REST-02 and REST-03 change from a to b and back: 2 flips each over 3 runs.
    capture();
    expect(await diffCommand([before, after, before])).toBe(1);
    const text = output.join('');
    expect(text).toContain('over 3 runs:\nREST-02  2 of 2 runs flipped  pass fail pass\nREST-03  2 of 2 runs flipped  fail pass fail\n');
    expect(text).toContain('2 rules changed status over 3 runs (2 not listed as known flaky), 49 stable');

    const baseline = join(dir, 'flaky.json');
    await writeFile(baseline, JSON.stringify({ knownFlaky: ['REST-02', { rule: 'REST-03', reason: 'shared rate limit' }] }));
    capture();
    expect(await diffCommand([before, after, before, '--baseline', baseline])).toBe(0);
    expect(output.join('')).toContain('REST-02  2 of 2 runs flipped  pass fail pass  (known flaky)');
    capture();
    expect(await diffCommand([before, after, '--baseline', baseline])).toBe(0);
    await writeFile(baseline, JSON.stringify({ knownFlaky: ['REST-02'] }));
    capture();
    expect(await diffCommand([before, after, '--baseline', baseline])).toBe(1);
  });
});
