// Each command's module is loaded when it runs (`--help` and `rules` load no runner, simulator or Vitest); the error
// classes come from the small modules that define them.
import { startWorkerEarly } from './run/worker-pool.ts';
import { UsageError } from './cli/usage-error.ts';
import { mark } from './timing.ts';
import { BaselineError, ReportFileError, ReportWriteError } from './report/errors.ts';
import { UnknownDefectError } from './sim/defects.ts';
import { ConfigError } from './targets/config.ts';
import { TOOL_VERSION } from './package-info.ts';

const help = (runHelp: string): string => `tds-conformance ${TOOL_VERSION}: conformance harness for the travel distribution service's authentication interface

Commands:
  run        run the conformance suites against a target (default: the built-in simulator)
  selftest   prove every check can fail: run each rule against the simulator with its defect switched on
  serve      run the simulator alone (CERT and PROD, accounts printed, clock control) to try a client by hand
  calibrate  send the same probe exchanges to a target and to the stand-in of its learned profile, and report the fidelity
  observe    judge any client from its real traffic: a recording proxy in front of the simulator or CERT, no driver
  judge      judge a client from a HAR file (browser devtools, mitmproxy, Charles)
  doctor     check a live target's config, DNS, TLS and clock skew without spending a token
  diff       compare two runs' report.json: the rules whose status changed (exit 1 when any did)
  merge      combine report.json files: the shards of a run (run --shard i/n) into one report set, several
             subjects (targets, clients) into a conformance matrix
  rules      list the rule catalog
  docs       write docs/rules.md (the rules, their quotes and tests, state diagrams) from the spec

"tds-conformance <command> --help" shows a command's options.

${runHelp}`;

async function listRules(): Promise<number> {
  const { rules } = await import('./catalog/index.ts');
  for (const r of rules) process.stdout.write(`${r.id.padEnd(10)} ${r.side.padEnd(8)} ${r.level.padEnd(7)} ${r.where.padEnd(7)} ${r.statement}\n`);
  return 0;
}

/** Marks a stream that {@link toleratePipeErrors} already looks after. */
const TOLERATED = Symbol.for('tds-conformance.pipe-errors-tolerated');

/**
 * A console nobody reads any more (a pipe into `head`, a parent that died) must not stop a run: a failed write to
 * stdout or stderr is dropped, the run goes on and writes its report. Without a listener, each failed write would be
 * an uncaught error whose message goes to the same closed stderr.
 */
function toleratePipeErrors(): void {
  // Once per stream, whatever other listeners it has: a stream piped into stdout or stderr listens to its errors only
  // until the first one unpipes it (from the TypeScript sources, in a checkout, one is piped in before the CLI starts).
  for (const stream of [process.stdout, process.stderr] as (NodeJS.WriteStream & { [TOLERATED]?: true })[]) {
    if (stream[TOLERATED]) continue;
    stream[TOLERATED] = true;
    stream.on('error', () => undefined);
  }
}

/**
 * A run's first test worker starts before the CLI loads the run's modules (harness/run/worker-pool.ts): it loads its
 * runtime while this process loads Vitest. Not for `--help`.
 */
function startWorker(args: readonly string[]): void {
  if (args.includes('--help') || args.includes('-h')) return;
  startWorkerEarly();
}

/**
 * A command without options: `--help` (or `-h`) prints `usage` and is answered (true); any other argument is a usage
 * error, before the command does anything.
 */
function simpleCommandHelp(command: string, args: readonly string[], usage: string): boolean {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${usage}\n`);
    return true;
  }
  if (args.length > 0) throw new UsageError(`"${command}" takes no options, not ${JSON.stringify(args[0])} (see "tds-conformance ${command} --help").`);
  return false;
}

/** Runs the CLI and returns its exit code. Errors the user can fix are one paragraph on stderr with exit code 2. */
export async function main(argv: readonly string[]): Promise<number> {
  mark('cli-start');
  toleratePipeErrors();
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'run':
        startWorker(args);
        return await (await import('./cli/run.ts')).runCommand(args);
      case 'selftest':
        startWorker(args);
        return await (await import('./cli/selftest.ts')).selftestCommand(args);
      case 'serve':
        return await (await import('./cli/serve.ts')).serveCommand(args);
      case 'doctor':
        return await (await import('./cli/doctor.ts')).doctorCommand(args);
      case 'observe':
        // The process observes, for as long as the application runs: memory before speed (observe/lean-heap.ts).
        (await import('./observe/lean-heap.ts')).leanHeap();
        return await (await import('./cli/observe.ts')).observeCommand(args);
      case 'calibrate':
        return await (await import('./cli/calibrate.ts')).calibrateCommand(args);
      case 'judge':
        return await (await import('./cli/judge.ts')).judgeCommand(args);
      case 'diff':
        return await (await import('./cli/diff.ts')).diffCommand(args);
      case 'merge':
        return await (await import('./cli/merge.ts')).mergeCommand(args);
      case 'rules':
        if (simpleCommandHelp('rules', args, 'Usage: tds-conformance rules\n\nLists the rule catalog: ID, side, level, where it applies, and its statement.')) return 0;
        return await listRules();
      case 'docs': {
        if (simpleCommandHelp('docs', args, 'Usage: tds-conformance docs\n\nWrites docs/rules.md (the rules, their quotes, clauses, latitudes and tests, state diagrams) from the catalog,\nwhen it differs from what is there.')) return 0;
        const { RULES_MD, writeRulesMarkdown } = await import('./docs/write.ts');
        const changed = writeRulesMarkdown();
        process.stdout.write(`${changed ? 'wrote' : 'up to date:'} ${RULES_MD}\n`);
        return 0;
      }
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(`${help((await import('./cli/run.ts')).RUN_HELP)}\n`);
        return command === undefined ? 2 : 0;
      case '--version':
        process.stdout.write(`${TOOL_VERSION}\n`);
        return 0;
      default:
        throw new UsageError(`"${command}" is not a tds-conformance command. Commands: run, selftest, serve, calibrate, observe, judge, doctor, diff, merge, rules, docs (see "tds-conformance --help").`);
    }
  } catch (err) {
    if (
      err instanceof UsageError || err instanceof ConfigError || err instanceof UnknownDefectError
      || err instanceof BaselineError || err instanceof ReportFileError || err instanceof ReportWriteError
    ) {
      process.stderr.write(`tds-conformance: ${err.message}\n`);
      return 2;
    }
    // A fault of the harness itself: one line, not a stack trace (TDS_DEBUG=1 shows it).
    if (process.env['TDS_DEBUG']) throw err;
    const code = (err as { code?: unknown }).code;
    process.stderr.write(`tds-conformance: internal error${typeof code === 'string' ? ` ${code}` : ''}: ${err instanceof Error ? err.message : String(err)} (TDS_DEBUG=1 shows where; please report it)\n`);
    return 1;
  }
}
