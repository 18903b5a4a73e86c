import { RUN_HELP, runCommand } from './cli/run.ts';
import { diffCommand } from './cli/diff.ts';
import { doctorCommand } from './cli/doctor.ts';
import { judgeCommand } from './cli/judge.ts';
import { observeCommand } from './cli/observe.ts';
import { selftestCommand } from './cli/selftest.ts';
import { serveCommand } from './cli/serve.ts';
import { RULES_MD, writeRulesMarkdown } from './docs/write.ts';
import { UsageError } from './cli/usage-error.ts';
import { BaselineError, ReportFileError } from './report/errors.ts';
import { UnknownDefectError } from './sim/index.ts';
import { rules } from './spec/index.ts';
import { ConfigError } from './targets/index.ts';
import { TOOL_VERSION } from './package-info.ts';

const HELP = `tds-conformance ${TOOL_VERSION}: conformance harness for the travel distribution service's authentication interface

Commands:
  run        run the conformance suites against a target (default: the built-in simulator)
  selftest   prove every check can fail: run each rule against the simulator with its defect switched on
  serve      run the simulator alone (CERT and PROD, accounts printed, clock control) to try a client by hand
  observe    judge any client from its real traffic: a recording proxy in front of the simulator or CERT, no driver
  judge      judge a client from a HAR file (browser devtools, mitmproxy, Charles)
  doctor     check a live target's config, DNS, TLS and clock skew without spending a token
  diff       compare two runs' report.json: the rules whose status changed (exit 1 when any did)
  rules      list the rule catalog
  docs       write docs/rules.md (the rules, their quotes and tests, state diagrams) from the spec

"tds-conformance <command> --help" shows a command's options.

${RUN_HELP}`;

function listRules(): number {
  for (const r of rules) process.stdout.write(`${r.id.padEnd(10)} ${r.side.padEnd(8)} ${r.level.padEnd(7)} ${r.where.padEnd(7)} ${r.statement}\n`);
  return 0;
}

/** Runs the CLI and returns its exit code. Errors the user can fix are one paragraph on stderr with exit code 2. */
export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'run':
        return await runCommand(args);
      case 'selftest':
        return await selftestCommand(args);
      case 'serve':
        return await serveCommand(args);
      case 'doctor':
        return await doctorCommand(args);
      case 'observe':
        return await observeCommand(args);
      case 'judge':
        return await judgeCommand(args);
      case 'diff':
        return await diffCommand(args);
      case 'rules':
        return listRules();
      case 'docs': {
        const changed = writeRulesMarkdown();
        process.stdout.write(`${changed ? 'wrote' : 'up to date:'} ${RULES_MD}\n`);
        return 0;
      }
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(`${HELP}\n`);
        return command === undefined ? 2 : 0;
      case '--version':
        process.stdout.write(`${TOOL_VERSION}\n`);
        return 0;
      default:
        throw new UsageError(`"${command}" is not a tds-conformance command. Commands: run, selftest, serve, observe, judge, doctor, diff, rules, docs (see "tds-conformance --help").`);
    }
  } catch (err) {
    if (
      err instanceof UsageError || err instanceof ConfigError || err instanceof UnknownDefectError
      || err instanceof BaselineError || err instanceof ReportFileError
    ) {
      process.stderr.write(`tds-conformance: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}
