import { ConformanceSession } from '../runner.ts';
import { allSubjects, expectedStatus, selfTest, type SelfTestResult } from '../selftest.ts';
import { parse, parseInteger } from './args.ts';

const HELP = `Usage: tds-conformance selftest [--only <subject id>]... [--json]

Proves that every check can fail, and only for its own rule: for each simulator defect (mutant client), runs every
service (client) rule and expects the rules it breaks to fail (warn, for SHOULD rules; a changed observation, for
INFO rules) and no other rule to fail, warn or error (but those the defect declares may follow); then runs every
rule against the simulator with the reference clients (in-process TypeScript, the TypeScript stdio driver, the
Python driver) and expects no failure. Prints one line per subject, the precision (collateral verdicts: rules that
failed without being broken), and a closing "N passed, N failed" line.`;

function line(r: SelfTestResult): string {
  const mark = r.kind === 'caught' || r.kind === 'clean' ? '✓' : '✗';
  const collateral = r.kind === 'collateral' ? `; collateral: ${r.wrong.map((id) => `${id} ${r.statuses[id]}`).join(', ')}` : '';
  const kind = r.subject.kind === 'defect' ? 'defect' : r.subject.kind === 'mutant' ? 'mutant' : 'clean ';
  let detail: string;
  if (r.subject.kind === 'reference') detail = r.kind === 'clean' ? 'no rule failed' : Object.entries(r.statuses).map(([id, s]) => `${id} ${s}`).join(', ');
  else {
    detail = r.subject.breaks.map((id) => `${id} ${r.statuses[id]}${r.statuses[id] === expectedStatus(id) ? '' : ` (expected ${expectedStatus(id)})`}`).join(', ');
    const followed = r.subject.mayFollow.filter((id) => r.statuses[id] !== undefined);
    if (followed.length) detail += `; also ${followed.map((id) => `${id} ${r.statuses[id]}`).join(', ')} (declared to follow)`;
  }
  return `${mark} ${kind} ${r.subject.id.padEnd(40)} ${detail}${collateral}`;
}

export async function selftestCommand(args: readonly string[]): Promise<number> {
  const { values } = parse('selftest', args, {
    only: { type: 'string', multiple: true },
    runs: { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const runs = parseInteger('runs', values.runs, 1);
  const subjects = (await allSubjects()).filter((s) => !values.only?.length || values.only.some((o) => s.id.includes(o)));
  const session = await ConformanceSession.open('sim');
  const results: SelfTestResult[] = [];
  try {
    for (const subject of subjects) {
      const result = await selfTest(session, subject, runs === undefined ? {} : { runs });
      results.push(result);
      if (!values.json) process.stdout.write(`${line(result)}\n`);
    }
  } finally {
    await session.close();
  }
  const failed = results.filter((r) => r.kind === 'missed' || r.kind === 'dirty' || r.kind === 'collateral').length;
  const judged = results.filter((r) => r.subject.kind !== 'reference');
  const collateral = judged.flatMap((r) => (r.kind === 'collateral' ? r.wrong : []));
  const precise = judged.filter((r) => r.kind === 'caught').length;
  if (!values.json) process.stdout.write(`precision: ${precise} of ${judged.length} defects and mutants caught by exactly their rules; ${collateral.length} collateral verdict${collateral.length === 1 ? '' : 's'}\n`);
  if (values.json) process.stdout.write(`${JSON.stringify(results.map((r) => ({ subject: r.subject.id, kind: r.kind, statuses: r.statuses })))}\n`);
  process.stdout.write(`${results.length - failed} passed, ${failed} failed\n`);
  return failed === 0 ? 0 : 1;
}
