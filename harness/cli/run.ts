import { resolve } from 'node:path';
import { runConformance, type SuiteName } from '../runner.ts';
import { parse, parseInteger, parseOnly } from './args.ts';
import { UsageError } from './usage-error.ts';

export const RUN_HELP = `Usage: tds-conformance run [options]

Runs the conformance suites against a target and writes report.json, junit.xml and report.md.

Options:
  --target <sim|cert|file.json>  what to check (default: sim, the built-in simulator)
  --suite <service|client|all>   which rules (default: service)
  --only <ids>                   rule IDs, areas or globs, comma-separated (REST-03,SESS,ERR-0*)
  --out <dir>                    where to write the reports (default: reports/latest)
  --seed <n>                     seed of the generated cases (default: 42)
  --runs <n>                     generated cases per property (default: 25)
  --allow-opt-in                 run opt-in rules against a live target (pool exhaustion, PROD, ...)
  --defect <id>                  switch on a simulator defect (repeatable; --target sim only)
  --replay <title@path>          replay one property at a recorded path (see a report's replay line)
  --timeout <ms>                 time limit of one request
  --quiet                        no progress lines

Exit codes: 0 no MUST rule failed and nothing errored, 1 a MUST rule failed or a check errored,
            2 usage or configuration error, 3 the target could not be reached.`;

export async function runCommand(args: readonly string[]): Promise<number> {
  const { values } = parse('run', args, {
    target: { type: 'string', default: 'sim' },
    suite: { type: 'string', default: 'service' },
    only: { type: 'string', multiple: true },
    out: { type: 'string', default: 'reports/latest' },
    seed: { type: 'string' },
    runs: { type: 'string' },
    'allow-opt-in': { type: 'boolean', default: false },
    defect: { type: 'string', multiple: true },
    replay: { type: 'string' },
    timeout: { type: 'string' },
    quiet: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  });
  if (values.help) {
    process.stdout.write(`${RUN_HELP}\n`);
    return 0;
  }
  const suite = values.suite as SuiteName;
  if (!['service', 'client', 'all'].includes(suite)) throw new UsageError(`--suite must be service, client or all, not "${values.suite}".`);
  let replay: { check: string; path: string } | undefined;
  if (values.replay !== undefined) {
    const at = values.replay.lastIndexOf('@');
    if (at <= 0) throw new UsageError('--replay takes "<check title>@<path>", as printed in a report\'s replay line.');
    replay = { check: values.replay.slice(0, at), path: values.replay.slice(at + 1) };
  }
  const only = parseOnly(values.only);
  const seed = parseInteger('seed', values.seed, 0);
  const runs = parseInteger('runs', values.runs, 1);
  const timeout = parseInteger('timeout', values.timeout, 1);
  const outDir = resolve(values.out);
  const { report, exitCode } = await runConformance({
    target: values.target,
    suite,
    outDir,
    allowOptIn: values['allow-opt-in'],
    defects: values.defect ?? [],
    quiet: values.quiet,
    ...(only && { only }),
    ...(seed !== undefined && { seed }),
    ...(runs !== undefined && { runs }),
    ...(timeout !== undefined && { requestTimeoutMs: timeout }),
    ...(replay && { replay }),
  });
  if (exitCode === 3) {
    process.stderr.write(
      `\nThe target "${report.target.name}" could not be reached: no check got an answer from it. ` +
        'Check the addresses in the target config, your network and proxy (HTTPS_PROXY), and that the service is up; ' +
        '"tds-conformance doctor --target ..." checks DNS, TLS and reachability without spending a token. ' +
        `The report with what is known is in ${outDir}.\n`,
    );
  }
  return exitCode;
}
