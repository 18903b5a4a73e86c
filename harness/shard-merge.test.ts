/**
 * Scale-out: the shards of a run (`run --shard i/n`), merged with `tds-conformance merge`, give the verdicts of the
 * same run unsharded; runs of different subjects merge into a conformance matrix.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { mergeCommand } from './cli/merge.ts';
import type { Report } from './report/index.ts';
import { renderMatrixMarkdown } from './report/matrix.ts';
import { readBaselineFile } from './report/baseline.ts';
import { mergeShards } from './report/merge.ts';
import { Redactor } from './report/redact.ts';
import { writeReports } from './report/write.ts';
import type { RunOptions } from './runner.ts';
import { sharedRun } from '../test/support/shared-session.ts';

const dir = mkdtempSync(join(tmpdir(), 'tds-merge-'));
// Every run is made on the test worker's session (sharedRun): a shard is a run's setting (harness/run/file-order.ts).
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Rules whose checks are spread over several suite files, one of them broken by a defect: a fail, passes, and checks
// skipped for a failed prerequisite, in more than one shard.
const RUN: RunOptions = {
  target: 'sim', outDir: '', write: false, quiet: true, log: () => {}, runs: 3,
  only: ['REST-02', 'REST-03', 'ERR-01', 'SOAP-02'], defects: ['rest03-token-type-capitalized'],
};

const verdicts = (r: Report) => r.rules.map((rule) => `${rule.id} ${rule.status}${rule.reason ? ` (${rule.reason})` : ''}`);
const checkNames = (r: Report) => r.rules.flatMap((rule) => rule.checks.map((c) => `${c.name}: ${c.status}`)).sort();
const ran = (r: Report) => r.rules.flatMap((rule) => rule.checks).filter((c) => c.status !== 'skipped').length;

describe('run --shard and merge', () => {
  it('REST-02, REST-03, ERR-01, SOAP-02: merged shards give the verdicts, checks and exit code of one unsharded run', async () => {
    const whole = (await sharedRun(RUN)).report;
    const shards = [(await sharedRun({ ...RUN, shard: { index: 1, count: 2 } })).report, (await sharedRun({ ...RUN, shard: { index: 2, count: 2 } })).report];
    // Each shard ran a part: neither alone has every check.
    for (const shard of shards) {
      expect(ran(shard)).toBeGreaterThan(0);
      expect(ran(shard)).toBeLessThan(ran(whole));
    }
    expect(whole.rules.find((r) => r.id === 'REST-03')?.status).toBe('fail');

    const merged = mergeShards(shards);
    expect(verdicts(merged)).toEqual(verdicts(whole));
    expect(checkNames(merged)).toEqual(checkNames(whole));
    expect(merged.summary).toEqual(whole.summary);
    expect(merged.exitCode).toBe(whole.exitCode);

    // The CLI: the shards' report.json files → one report set, in every format.
    const paths = await Promise.all(shards.map(async (s, i) => (await writeReports(s, join(dir, `shard-${i + 1}`), new Redactor())).files.json));
    const out = join(dir, 'merged');
    expect(await mergeCommand([...paths, '--out', out])).toBe(1);
    for (const f of ['report.json', 'junit.xml', 'report.md', 'report.html', 'report.earl.jsonld']) expect(existsSync(join(out, f))).toBe(true);
    expect(verdicts(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report)).toEqual(verdicts(whole));
  }, 120_000);

  it('REST-02, REST-03, ERR-01, SOAP-02 with --require-checked: each shard leaves the gate to the merge, which gives the gate of the run unsharded', async () => {
    // Without the defect, a few rules at --runs 3: the gate finds what one run leaves unchecked (SOAP-02's clauses
    // these rules' files do not reach), and the merge must find the same, no more (a rule of the other shard) and no less.
    const GATED: RunOptions = { ...RUN, defects: [], requireChecked: true };
    const whole = (await sharedRun(GATED)).report;
    const shards = [(await sharedRun({ ...GATED, shard: { index: 1, count: 2 } })).report, (await sharedRun({ ...GATED, shard: { index: 2, count: 2 } })).report];
    for (const [i, shard] of shards.entries()) {
      expect(shard.shard).toEqual({ index: i + 1, count: 2 });
      expect(shard.deferredGate).toEqual({ expectedSkips: [] });
      expect(shard.gate).toBeUndefined();
    }
    // Alone, a shard leaves rules unchecked that the other checks: gated, it would fail.
    expect(shards.some((s) => s.summary.skipped > whole.summary.skipped)).toBe(true);
    expect(whole.gate).toBeDefined();

    const paths = await Promise.all(shards.map(async (s, i) => (await writeReports(s, join(dir, `gated-${i + 1}`), new Redactor())).files.json));
    const out = join(dir, 'gated-merged');
    expect(await mergeCommand([...paths, '--out', out])).toBe(whole.exitCode);
    const merged = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    expect(merged.gate?.unchecked.map((u) => u.rule)).toEqual(whole.gate?.unchecked.map((u) => u.rule));
    expect(merged.exitCode).toBe(whole.exitCode);
    expect(merged.shard).toBeUndefined();

    // One shard only: the other's rules are unchecked, and the gate says so.
    const alone = join(dir, 'gated-alone');
    expect(await mergeCommand([paths[0]!, '--out', alone])).toBe(1);
    const half = JSON.parse(readFileSync(join(alone, 'report.json'), 'utf8')) as Report;
    expect(half.gate!.unchecked.length).toBeGreaterThan(whole.gate!.unchecked.length);
  }, 120_000);

  it('a shard not given (it crashed before writing its report) makes the merge exit 1, with a run error, even where every rule given passes', async () => {
    const shard = (await sharedRun({ ...RUN, defects: [], shard: { index: 1, count: 2 } })).report;
    expect(shard.exitCode).toBe(0);
    const path = (await writeReports(shard, join(dir, 'conforming-shard-1'), new Redactor())).files.json;
    const out = join(dir, 'missing-shard');
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      expect(await mergeCommand([path, '--out', out])).toBe(1);
    } finally {
      write.mockRestore();
    }
    const merged = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    expect(merged.runErrors).toEqual([{ code: 'SHARD_MISSING', message: 'shard 2/2 not given: the checks of its files are missing from the merged report' }]);
    expect(merged.completion).toBe('partial');
    expect(merged.exitCode).toBe(1);
  }, 120_000);

  it('REST-03 a known failure (--baseline): the merge judges the merged rules by the shards\' baseline, as the run unsharded', async () => {
    const file = join(dir, 'baseline.json');
    writeFileSync(file, JSON.stringify({ knownFailures: [{ rule: 'REST-03', reason: 'token_type "Bearer" (a ticket)' }] }));
    const baseline = await readBaselineFile(file);
    const WITH: RunOptions = { ...RUN, baseline: { file, baseline } };
    const whole = (await sharedRun(WITH)).report;
    expect(whole.exitCode).toBe(0);
    const shards = [(await sharedRun({ ...WITH, shard: { index: 1, count: 2 } })).report, (await sharedRun({ ...WITH, shard: { index: 2, count: 2 } })).report];
    for (const shard of shards) expect(shard.deferredBaseline).toEqual({ file, baseline });
    const paths = await Promise.all(shards.map(async (s, i) => (await writeReports(s, join(dir, `baseline-${i + 1}`), new Redactor())).files.json));
    const out = join(dir, 'baseline-merged');
    expect(await mergeCommand([...paths, '--out', out])).toBe(0);
    const merged = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    const { file: _f, ...summary } = merged.baseline!;
    const { file: _g, ...expected } = whole.baseline!;
    expect(summary).toEqual(expected);
    expect(verdicts(merged)).toEqual(verdicts(whole));
  }, 120_000);

  it('REST-03 a known failure: merge --baseline judges the merged shards by a baseline, and --update-baseline writes it from the whole run, not a shard', async () => {
    // The shards of the first test, run without a baseline: REST-03 fails in one of them.
    const plain = [1, 2].map((i) => join(dir, `shard-${i}`, 'report.json'));
    const file = join(dir, 'from-merge.json');
    expect(existsSync(file)).toBe(false);
    expect(await mergeCommand([...plain, '--out', join(dir, 'updated'), '--baseline', file, '--update-baseline'])).toBe(0);
    expect((await readBaselineFile(file)).knownFailures).toEqual([{ rule: 'REST-03' }]);
    // The same shards judged by it: the known failure no longer fails the merge; without it, it does.
    expect(await mergeCommand([...plain, '--out', join(dir, 'judged'), '--baseline', file])).toBe(0);
    const judged = JSON.parse(readFileSync(join(dir, 'judged', 'report.json'), 'utf8')) as Report;
    expect(judged.baseline).toMatchObject({ file, knownFailures: ['REST-03'], unexpectedPasses: [] });
    expect(await mergeCommand([...plain, '--out', join(dir, 'unjudged')])).toBe(1);
    // A baseline is one subject's: reports of two subjects are refused before anything is written.
    await expect(mergeCommand([`a=${plain[0]}`, `b=${plain[1]}`, '--out', join(dir, 'two'), '--baseline', file, '--update-baseline']))
      .rejects.toThrow('--update-baseline writes the baseline of one subject, and these reports are of 2 (a, b): merge the shards of one subject.');
    expect(existsSync(join(dir, 'two'))).toBe(false);
  }, 60_000);

  it('reports of different subjects merge into a subject × rule matrix (HTML and Markdown)', async () => {
    const base = (await sharedRun({ ...RUN, only: ['REST-03'], defects: [] })).report;
    const broken = (await sharedRun({ ...RUN, only: ['REST-03'] })).report;
    const a = (await writeReports(base, join(dir, 'a'), new Redactor())).files.json;
    const b = (await writeReports(broken, join(dir, 'b'), new Redactor())).files.json;
    const out = join(dir, 'matrix');
    expect(await mergeCommand(['--out', out, `conforming=${a}`, `capitalized bearer=${b}`])).toBe(1);
    const md = readFileSync(join(out, 'matrix.md'), 'utf8');
    expect(md).toContain('| rule | side | level | conforming | capitalized bearer |');
    expect(md).toContain('| REST-03 | service | MUST | ✅ pass | ❌ fail |');
    expect(md).toContain('| REST-02 | service | MUST | · not selected | · not selected |');
    expect(md).toBe(renderMatrixMarkdown([{ subject: 'conforming', report: base }, { subject: 'capitalized bearer', report: broken }]));
    expect(readFileSync(join(out, 'matrix.html'), 'utf8')).toContain('<td class="s-fail">❌ fail</td>');
    expect(existsSync(join(out, 'conforming', 'report.json'))).toBe(true);
    expect(existsSync(join(out, 'capitalized-bearer', 'report.html'))).toBe(true);
  }, 120_000);

  it('refuses to merge shards of different runs, saying which', async () => {
    const r = JSON.parse(readFileSync(join(dir, 'a', 'report.json'), 'utf8')) as Report;
    expect(() => mergeShards([r, { ...r, seed: 7 }])).toThrow('the reports of simulator come from different runs (seed 7 and 42); shards of one run share its seed, --runs and tool version');
  });
});
