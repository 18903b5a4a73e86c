import { ConformanceSession } from '../runner.ts';
import { allPairs, allSubjects, exemptionLines, precisionLine, resultLine, samplePairs, selfTest, worthSharing, type SelfTestResult } from '../selftest.ts';
import { parse, parseInteger } from './args.ts';
import { UsageError } from './usage-error.ts';

const HELP = `Usage: tds-conformance selftest [--only <subject id>]... [--pairs [--sample <n>] [--seed <n>]] [--no-share] [--json]

Proves that every check can fail, and only for its own rule: for each simulator defect (mutant client), runs every
service (client) rule and expects the rules it breaks to fail (warn, for SHOULD rules; a changed observation, for
INFO rules) and no other rule to fail, warn or error (but those the defect declares may follow); then runs every
rule against the simulator with the reference clients (in-process TypeScript, the TypeScript stdio driver, the
Python driver) and expects no failure. Prints one line per subject, the precision (collateral verdicts: rules that
failed without being broken; hidden verdicts: a broken rule reported skipped, error, not-applicable or partial), and
a closing "N passed, N failed" line.

--pairs runs the defect pairs instead: every simulator defect together with each route-taker (a deviation or a
conforming choice that takes away the usual route to the evidence: the CERT account refused, source_ip demanded,
SOAP tokens answered 400 on REST, the default probe action missing). Another route exists, so the defect's rule
must still fail: a skip or an error there is a hidden deviation. --sample <n> runs n pairs per route-taker, picked
with --seed (default 42), as npm test does. The pairs exempted because the interface document leaves their verdict
undecidable are printed first, with the reason (those --only names, with --only).

A simulator deviates only where it asks whether a defect is on. A suite file whose simulator, in a defect-free run
(made once, file by file, and shared by the subjects), never asked about a subject's defects keeps that run's
verdicts; only the other files run with the defects on. The mutant clients share the reference client's run alike:
it deviates only where it asks whether a fault is on. A subject that no other subject of the run shares such a run
with (a lone --only) runs every file itself, which costs less. --no-share runs every file for every subject.`;

export async function selftestCommand(args: readonly string[]): Promise<number> {
  const { values } = parse('selftest', args, {
    only: { type: 'string', multiple: true },
    runs: { type: 'string' },
    pairs: { type: 'boolean', default: false },
    sample: { type: 'string' },
    seed: { type: 'string' },
    json: { type: 'boolean', default: false },
    'no-share': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const runs = parseInteger('runs', values.runs, 1);
  const sample = parseInteger('sample', values.sample, 1);
  const seed = parseInteger('seed', values.seed, 0) ?? 42;
  if ((sample !== undefined || values.seed !== undefined) && !values.pairs) throw new UsageError('--sample and --seed choose defect pairs: give them with --pairs.');
  const all = values.pairs ? (sample === undefined ? allPairs() : samplePairs(seed, sample)) : await allSubjects();
  if (values.only?.some((o) => o.trim() === '')) throw new UsageError('--only is empty: give part of a defect or mutant ID (as "tds-conformance selftest" prints them), or defect, mutant or reference.');
  const subjects = all.filter((s) => !values.only?.length || values.only.some((o) => s.id.includes(o) || s.kind === o));
  if (subjects.length === 0) {
    throw new UsageError(`--only ${values.only?.join(' ')} matches no subject: give part of a defect or mutant ID (as "tds-conformance selftest" prints them), or defect, mutant or reference.`);
  }
  if (values.pairs && !values.json) {
    const exempted = exemptionLines().filter((line) => !values.only?.length || values.only.some((o) => line.includes(o)));
    if (exempted.length) process.stdout.write(`exempted (the interface document leaves the verdict undecidable):\n${exempted.join('\n')}\n`);
  }
  const session = await ConformanceSession.open('sim');
  const results: SelfTestResult[] = [];
  const shares = worthSharing(subjects, { ...(runs !== undefined && { runs }) });
  try {
    for (const subject of subjects) {
      const share = !values['no-share'] && shares(subject);
      const result = await selfTest(session, subject, { ...(runs !== undefined && { runs }), ...(!share && { share: false }) });
      results.push(result);
      if (!values.json) process.stdout.write(`${resultLine(result)}\n`);
    }
  } finally {
    await session.close();
  }
  const failed = results.filter((r) => r.kind === 'missed' || r.kind === 'hidden' || r.kind === 'dirty' || r.kind === 'collateral').length;
  if (!values.json) process.stdout.write(`${precisionLine(results)}\n`);
  if (values.json) process.stdout.write(`${JSON.stringify(results.map((r) => ({ subject: r.subject.id, kind: r.kind, statuses: r.statuses })))}\n`);
  process.stdout.write(`${results.length - failed} passed, ${failed} failed\n`);
  return failed === 0 ? 0 : 1;
}
