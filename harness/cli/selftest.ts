import { allDefects, expectedStatus, selfTestClean, selfTestDefect } from '../selftest.ts';
import { parse, parseInteger } from './args.ts';

const HELP = `Usage: tds-conformance selftest [--defect <id>]... [--json]

Proves that every check can fail: for each simulator defect, runs the rules it breaks against the simulator with the
defect switched on and expects each to fail (warn, for SHOULD rules); then runs everything with no defect and expects
no failure. Prints one line per defect and a closing "N passed, N failed" line.`;

export async function selftestCommand(args: readonly string[]): Promise<number> {
  const { values } = parse('selftest', args, {
    defect: { type: 'string', multiple: true },
    runs: { type: 'string' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const runs = parseInteger('runs', values.runs, 1);
  const options = runs === undefined ? {} : { runs };
  const chosen = values.defect?.length ? allDefects().filter((d) => values.defect?.includes(d.id)) : allDefects();
  let passed = 0;
  let failed = 0;
  const results = [];
  for (const defect of chosen) {
    const result = await selfTestDefect(defect, options);
    results.push(result);
    const statuses = defect.breaks.map((id) => `${id} ${result.statuses[id]}${result.statuses[id] === expectedStatus(id) ? '' : ` (expected ${expectedStatus(id)})`}`).join(', ');
    if (result.kind === 'caught') passed++;
    else failed++;
    if (!values.json) process.stdout.write(`${result.kind === 'caught' ? '✓' : '✗'} ${defect.id.padEnd(34)} ${statuses}\n`);
  }
  if (!values.defect?.length) {
    const clean = await selfTestClean(options);
    const bad = clean.report.rules.filter((r) => r.status === 'fail' || r.status === 'warn' || r.status === 'error');
    if (bad.length === 0) passed++;
    else failed++;
    if (!values.json) process.stdout.write(`${bad.length === 0 ? '✓' : '✗'} ${'(no defect)'.padEnd(34)} ${bad.length === 0 ? 'no rule failed' : bad.map((r) => `${r.id} ${r.status}`).join(', ')}\n`);
  }
  if (values.json) process.stdout.write(`${JSON.stringify(results.map((r) => ({ defect: r.defect.id, kind: r.kind, statuses: r.statuses })))}\n`);
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
  return failed === 0 ? 0 : 1;
}
