import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexSuiteTests } from './test-index.ts';

describe('indexSuiteTests', () => {
  const root = mkdtempSync(join(tmpdir(), 'tds-test-index-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const file = join(root, 'suites', 'service', 'x.test.ts');
  mkdirSync(join(root, 'suites', 'service'), { recursive: true });

  it('reads a suite file again when it changed, and keeps what it read while it did not', () => {
    writeFileSync(file, "ruleTest('REST-01', 'first title', () => {});\n");
    expect(indexSuiteTests(root).map((t) => [t.ids, t.title, t.file, t.line])).toEqual([[['REST-01'], 'first title', 'suites/service/x.test.ts', 1]]);
    // The same size, another time of change.
    writeFileSync(file, "ruleTest('REST-02', 'other title', () => {});\n");
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    expect(indexSuiteTests(root).map((t) => t.ids)).toEqual([['REST-02']]);
    // Another size.
    writeFileSync(file, "\nruleTest(['ERR-01', 'ERR-02'], 'a longer title', () => {});\n");
    expect(indexSuiteTests(root).map((t) => [t.ids, t.title, t.line])).toEqual([[['ERR-01', 'ERR-02'], 'a longer title', 2]]);
    // Unchanged: the same entries.
    expect(indexSuiteTests(root)).toEqual(indexSuiteTests(root));
  });
});
