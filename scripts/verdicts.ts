/**
 * A snapshot of the verdicts the harness gives, for refactorings that must not change one: every rule's status on the
 * default run, on every simulator defect, every mutant and reference client (the self-test's subjects), every defect
 * pair (`--pairs`), and every HAR fixture judged by `judge`. One JSON object, subject → rule → status, on stdout; compare two with
 * `diff` (or `node scripts/verdicts-diff.mjs a.json b.json`).
 *
 *   npx tsx scripts/verdicts.ts [--runs 1] [--seed 42] [--pairs] > verdicts.json
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { judgeCommand } from '../harness/cli/judge.ts';
import type { Report } from '../harness/report/index.ts';
import { ConformanceSession } from '../harness/runner.ts';
import { allPairs, allSubjects, selfTestRun } from '../harness/selftest.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '1' }, seed: { type: 'string', default: '42' }, pairs: { type: 'boolean', default: false } } });
const options = { runs: Number(values.runs), seed: Number(values.seed) };
const statuses = (report: Pick<Report, 'rules'>) => Object.fromEntries(report.rules.map((r) => [r.id, r.status]));

const out: Record<string, Record<string, string>> = {};
const session = await ConformanceSession.open('sim');
try {
  out['default run'] = statuses((await session.run({ target: 'sim', suite: 'all', outDir: '', write: false, quiet: true, log: () => {}, ...options })).report);
  for (const subject of [...(await allSubjects()), ...(values.pairs ? allPairs() : [])]) {
    out[`${subject.kind} ${subject.id}`] = statuses(await selfTestRun(session, subject, options));
    process.stderr.write('.');
  }
} finally {
  await session.close();
}
const fixtures = join(import.meta.dirname, '..', 'fixtures', 'har');
for (const file of readdirSync(fixtures).filter((f) => f.endsWith('.har')).sort()) {
  const dir = mkdtempSync(join(tmpdir(), 'tds-verdicts-'));
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (() => true) as typeof process.stdout.write;
  try {
    await judgeCommand([join(fixtures, file), '--target', join(fixtures, 'accounts.json'), '--whole-run', '--out', dir]);
  } finally {
    process.stdout.write = write;
  }
  out[`har ${file}`] = statuses(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report);
}
process.stdout.write(`${JSON.stringify(out, null, 1)}\n`);
