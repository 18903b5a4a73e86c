/**
 * The prerequisites the checks name when they skip (`PrerequisiteFailed`'s rules), collected over the default run,
 * every self-test subject and every defect pair: which rule's check was skipped after which rules. Compared with the
 * catalog's `dependsOn` (what each rule builds on) by `harness/catalog/dependencies.test.ts`'s sibling check in the
 * precision self-test; this script prints what a run shows, to write or review `dependsOn`.
 *
 *   npx tsx scripts/prerequisites.ts [--runs 1] [--pairs] > prerequisites.json
 */
import { parseArgs } from 'node:util';
import { ruleIdsInTitle } from '../harness/catalog/index.ts';
import type { Report } from '../harness/report/index.ts';
import { ConformanceSession } from '../harness/runner.ts';
import { allPairs, allSubjects, selfTestRun } from '../harness/selftest.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '1' }, seed: { type: 'string', default: '42' }, pairs: { type: 'boolean', default: false } } });
const options = { runs: Number(values.runs), seed: Number(values.seed) };
const seen = new Map<string, Set<string>>();
const collect = (report: Pick<Report, 'rules'>) => {
  for (const rule of report.rules) {
    for (const check of rule.checks) {
      if (check.status !== 'skipped' || !('prerequisite' in check) || !check.prerequisite) continue;
      for (const id of ruleIdsInTitle(check.name)) {
        const set = seen.get(id) ?? new Set<string>();
        for (const p of check.prerequisite.rules) set.add(p);
        seen.set(id, set);
      }
    }
  }
};
const session = await ConformanceSession.open('sim');
try {
  collect((await session.run({ target: 'sim', suite: 'all', outDir: '', write: false, quiet: true, log: () => {}, ...options })).report);
  for (const subject of [...(await allSubjects()), ...(values.pairs ? allPairs() : [])]) {
    collect(await selfTestRun(session, subject, options));
    process.stderr.write('.');
  }
} finally {
  await session.close();
}
process.stdout.write(`${JSON.stringify(Object.fromEntries([...seen].sort().map(([k, v]) => [k, [...v].sort()])), null, 1)}\n`);
