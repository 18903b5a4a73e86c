import { resolve } from 'node:path';
import { resolveTarget, selectRules, type RunOptions, type SuiteName } from '../runner.ts';
import { getRule } from '../catalog/index.ts';
import { createBaseline, readBaselineFile, writeBaselineFile } from '../report/baseline.ts';
import { githubAnnotations } from '../report/github.ts';
import { EXIT_CODES } from '../report/model.ts';
import { parseReplayTarget, REPLAY_PREFIX, splitShellWords, ShellSyntaxError } from '../report/replay.ts';
import { MAX_TIMEOUT_MS, parse, parseInteger, parseOnly } from './args.ts';
import { exitCodeOf, interruptedLine, runInterruptibly } from './interruptible.ts';
import { checkClient, checkHarFile, checkOutDir } from './preflight.ts';
import { isSuiteTitle } from '../docs/test-index.ts';
import { CODE_ROOT } from '../package-info.ts';
import type { ClientSpec } from '../clients/load.ts';
import { parseShard } from './shard.ts';
import { standInOption } from './stand-in-option.ts';
import { UsageError } from './usage-error.ts';
import { HEADER_NAME } from '../targets/config.ts';

export const RUN_HELP = `Usage: tds-conformance run [options]

Runs the conformance suites against a target and writes report.json, junit.xml, report.md, report.html and
report.earl.jsonld (EARL, JSON-LD).

Options:
  --target <sim|cert|file.json>  what to check (default: sim, the built-in simulator)
  --suite <service|client|all>   which rules (default: service)
  --only <ids>                   rule IDs, areas or globs, comma-separated (REST-03,SESS,ERR-0*)
  --out <dir>                    where to write the reports (default: reports/latest)
  --seed <n>                     seed of the generated cases (default: 42)
  --runs <n>                     generated cases per property (default: 25 on the simulator, 5 on a live target)
  --allow-opt-in                 run opt-in rules against a live target (pool exhaustion, PROD, ...)
  --defect <id>                  switch on a simulator defect (repeatable; --target sim only)
  --replay <title[@path]>        re-run just one check (a property at a recorded path; see a report's replay line)
  --baseline <known.json>        known failures: listed rules (or checks) may fail without failing the run, and
                                 a listed one that passes fails it
  --update-baseline              write the run's failures to the --baseline file (keeping entries of rules not run);
                                 not with --shard: merge updates it from the shards
  --require-checked              certification gate: a selected rule that ends skipped, not-applicable or partial
                                 fails the run (exit 1), unless the baseline lists it under "expectedSkips";
                                 with --shard, "tds-conformance merge" applies it to the shards together
  --har <file>                   write every exchange of the run to a HAR 1.2 file (redacted; each entry tagged
                                 with its rule, check and correlation ID)
  --report-har                   write the same HAR as traffic.har beside the reports
  --correlation-header <name>    the header naming run, rule and check on every request (default
                                 X-Conformance-Check, or the target config's "correlationHeader")
  --no-correlation-header        send no correlation header (a service that refuses unknown headers); the
                                 report still lists each check's correlation IDs
  --client "<command>"           the client under test: a driver process speaking the driver protocol
                                 (docs/driver-protocol.md), for --suite client|all
  --client-module <path>         the client under test: a module exporting createClient() (JavaScript, or TypeScript
                                 with a loader in NODE_OPTIONS, e.g. --import tsx)
                                 (default for the client suite: the reference TypeScript client)
  --client-timeout <ms>          time limit of one op of the client under test (default 30000)
  --max-tokens <n>               live targets: tokens the run may create (default 200)
  --max-sessions <n>             live targets: sessions the run may open (default 70, and 4 more for each slot of a
                                 declared sessionPoolSize past 4 when opt-in rules run)
  --rate <n>                     live targets: requests per second, at most (default 5)
  --timeout <ms>                 time limit of one request (default: 5000 on the simulator, 15000 on a live target,
                                 or the target config's requestTimeoutMs)
  --sim-profile <profile.json>   the built-in simulator answers as the target a live run learnt this profile from
                                 (its stand-in; --target sim only), conforming in that target's style
  --with-deviations              with --sim-profile: also the target's deviations the simulator can reproduce
  --throttle-wait <seconds>      longest one request waits out throttling (429, 503, busy faults; Retry-After
                                 honoured) before its check ends error RATE_LIMITED (default 60)
  --shard <i/n>                  run only the i-th of n parts of the suites' files (a CI matrix job); join the
                                 parts' report.json with "tds-conformance merge"
  --quiet                        no progress lines

With GITHUB_ACTIONS=true, failures are also printed as GitHub Actions annotations (::error, ::warning).

In a terminal outside CI, a run on the built-in simulator (no --client, no --client-module) is handed to the run
server of this build when one is up: a background process the first such run starts, which keeps a warm session and
runs each command as this one would (same reports, output and exit code; a later default run about 3 times faster).
It ends after TDS_RUN_SERVER_IDLE_SECONDS (default 600) without a run. TDS_RUN_SERVER=0 turns it off; =1 uses it
outside a terminal too.

Exit codes: 0 no MUST rule failed (but known failures) and nothing errored, 1 a MUST rule failed, a check errored,
            a known failure passed or --require-checked found a rule unchecked, 2 usage or configuration error,
            3 the target could not be reached.`;

/** Largest `--seed`: fast-check seeds are 32-bit integers. */
const MAX_SEED = 2_147_483_647;

/** What a `run` command line asks for. */
export interface ParsedRun {
  readonly help: boolean;
  /** The run's options; `outDir` is resolved against the working directory. */
  readonly options: RunOptions;
  /** `--baseline <file>` as given, and whether `--update-baseline` was given. */
  readonly baseline?: { readonly file: string; readonly update: boolean };
  /** `--out` and `--client-module` as typed (for messages). */
  readonly given: { readonly out: string; readonly clientModule?: string };
}

/**
 * Reads the arguments of `tds-conformance run` (after `run`).
 * @throws {UsageError} for an unknown option or a bad value.
 */
export function parseRunArgs(args: readonly string[]): ParsedRun {
  const { values, positionals } = parse('run', args, {
    target: { type: 'string', default: 'sim' },
    suite: { type: 'string', default: 'service' },
    only: { type: 'string', multiple: true },
    out: { type: 'string', default: 'reports/latest' },
    seed: { type: 'string' },
    runs: { type: 'string' },
    'allow-opt-in': { type: 'boolean' },
    defect: { type: 'string', multiple: true },
    replay: { type: 'string' },
    baseline: { type: 'string' },
    'update-baseline': { type: 'boolean', default: false },
    timeout: { type: 'string' },
    'throttle-wait': { type: 'string' },
    'sim-profile': { type: 'string' },
    'with-deviations': { type: 'boolean', default: false },
    client: { type: 'string' },
    'client-module': { type: 'string' },
    'client-timeout': { type: 'string' },
    'max-tokens': { type: 'string' },
    'max-sessions': { type: 'string' },
    rate: { type: 'string' },
    quiet: { type: 'boolean', default: false },
    shard: { type: 'string' },
    'require-checked': { type: 'boolean', default: false },
    har: { type: 'string' },
    'report-har': { type: 'boolean', default: false },
    'correlation-header': { type: 'string' },
    'no-correlation-header': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  });
  const shard = parseShard(values.shard);
  if (positionals.length > 0) {
    throw new UsageError(`run takes options only, not "${positionals[0]}": options start with "--". Run "tds-conformance run --help" for the options.`);
  }
  const suite = values.suite as SuiteName;
  if (values.client !== undefined && values['client-module'] !== undefined) {
    throw new UsageError('give the client under test once: --client "<driver command>" or --client-module <path>, not both.');
  }
  const client: ClientSpec | undefined =
    values.client !== undefined ? { kind: 'command', command: values.client }
      : values['client-module'] !== undefined ? { kind: 'module', path: resolve(values['client-module']) } : undefined;
  if (client && suite === 'service') {
    throw new UsageError('--client and --client-module put a client under test: add --suite client (or --suite all) to run the client rules.');
  }
  const clientTimeout = parseInteger('client-timeout', values['client-timeout'], 1, MAX_TIMEOUT_MS);
  const maxTokens = parseInteger('max-tokens', values['max-tokens'], 0);
  const maxSessions = parseInteger('max-sessions', values['max-sessions'], 0);
  const rate = parseInteger('rate', values.rate, 1);
  if (values.out.trim() === '') throw new UsageError('--out is empty: give a directory for the reports (it is created if absent).');
  if (values.target.trim() === '') throw new UsageError('--target is empty: give sim, cert or the path of a target config file.');
  if (!['service', 'client', 'all'].includes(suite)) throw new UsageError(`--suite must be service, client or all, not "${values.suite}".`);
  const replay = values.replay === undefined ? undefined : parseReplayTarget(values.replay);
  if (values.replay !== undefined && replay === undefined) {
    throw new UsageError('--replay takes "<check title>@<path>" (or just the check title), as printed in a report\'s replay line.');
  }
  if (values['update-baseline'] && values.baseline === undefined) {
    throw new UsageError('--update-baseline writes the file of --baseline: give both, as in "--baseline known.json --update-baseline".');
  }
  if (values['update-baseline'] && shard !== undefined) {
    throw new UsageError('--update-baseline writes what the whole run failed, which one shard does not know: run the shards with --baseline, then "tds-conformance merge <shards> --baseline <file> --update-baseline".');
  }
  const header = values['correlation-header'];
  if (header !== undefined && values['no-correlation-header']) {
    throw new UsageError('give --correlation-header <name> or --no-correlation-header, not both.');
  }
  if (header !== undefined && !HEADER_NAME.test(header)) {
    throw new UsageError(`--correlation-header takes an HTTP header name (letters, digits and "-", such as X-Conformance-Check), not "${header}".`);
  }
  if (values.har !== undefined && values.har.trim() === '') throw new UsageError('--har is empty: give the file to write the run\'s traffic to (a .har file).');
  if (values.har !== undefined) checkHarFile(resolve(values.har), values.har);
  const only = parseOnly(values.only);
  const seed = parseInteger('seed', values.seed, 0, MAX_SEED);
  const runs = parseInteger('runs', values.runs, 1);
  const timeout = parseInteger('timeout', values.timeout, 1, MAX_TIMEOUT_MS);
  const throttleWait = parseInteger('throttle-wait', values['throttle-wait'], 0, 3_600);
  const stand = standInOption(values['sim-profile'], values['with-deviations'], values.target === 'sim' ? undefined : `it goes with --target sim, not "${values.target}"`);
  const options: RunOptions = {
    target: values.target,
    suite,
    outDir: resolve(values.out),
    allowOptIn: values['allow-opt-in'],
    defects: [...(values.defect ?? []), ...(stand?.defects ?? [])],
    ...(stand && { profile: stand.profile }),
    quiet: values.quiet,
    ...(only && { only }),
    ...(seed !== undefined && { seed }),
    ...(runs !== undefined && { runs }),
    ...(timeout !== undefined && { requestTimeoutMs: timeout }),
    ...(throttleWait !== undefined && { throttleWaitMs: throttleWait * 1000 }),
    ...(replay && { replay }),
    ...(client && { client }),
    ...(clientTimeout !== undefined && { clientTimeoutMs: clientTimeout }),
    ...(shard && { shard }),
    ...(values['require-checked'] && { requireChecked: true }),
    ...(values.har !== undefined && { har: resolve(values.har) }),
    ...(values['report-har'] && { reportHar: true }),
    ...(header !== undefined && { correlationHeader: header }),
    ...(values['no-correlation-header'] && { correlationHeader: false as const }),
    ...((maxTokens !== undefined || maxSessions !== undefined || rate !== undefined) && {
      budget: {
        ...(maxTokens !== undefined && { tokens: maxTokens }),
        ...(maxSessions !== undefined && { sessions: maxSessions }),
        ...(rate !== undefined && { requestsPerSecond: rate }),
      },
    }),
  };
  return {
    help: values.help,
    options,
    given: { out: values.out, ...(values['client-module'] !== undefined && { clientModule: values['client-module'] }) },
    ...(values.baseline !== undefined && { baseline: { file: values.baseline, update: values['update-baseline'] } }),
  };
}

/** The words a replay command may start with before the options of `run`. */
const COMMAND_HEADS: readonly (readonly string[])[] = [
  ['npx', 'tds-conformance', 'run'],
  ['tds-conformance', 'run'],
];

/**
 * Reads a replay command as a report prints it (`npx tds-conformance run --only REST-04 --seed 42 --replay '…@0:0'`)
 * into the options of the run it stands for. Also accepts `tds-conformance run …` and `node <path>/tds-conformance.js run …`.
 * @throws {UsageError} when the line is not a `tds-conformance run` command or has bad options.
 */
export function parseReplayCommand(line: string): ParsedRun {
  let words: string[];
  try {
    words = splitShellWords(line.trim());
  } catch (err) {
    if (err instanceof ShellSyntaxError) throw new UsageError(`the replay command cannot be read: ${err.message}.`);
    throw err;
  }
  const node = words[0] === 'node' && /(?:^|[\\/])tds-conformance(?:\.js)?$/.test(words[1] ?? '') && words[2] === 'run' ? 3 : 0;
  const head = node || (COMMAND_HEADS.find((h) => h.every((w, i) => words[i] === w))?.length ?? 0);
  if (head === 0) throw new UsageError(`a replay command starts with "${REPLAY_PREFIX}", not "${words.slice(0, 3).join(' ')}".`);
  return parseRunArgs(words.slice(head));
}

/** `tds-conformance run`: the run's exit code (the report's, with the baseline applied). */
export async function runCommand(args: readonly string[]): Promise<number> {
  const { help, options, baseline, given } = parseRunArgs(args);
  if (help) {
    process.stdout.write(`${RUN_HELP}\n`);
    return 0;
  }
  // Everything the run needs is checked before it starts: one line and exit code 2 for a bad value.
  resolveTarget(options.target, options.defects);
  checkClient(options.client, given.clientModule);
  // A replay of a title no check has would run nothing (and overwrite --out): refused now.
  if (options.replay !== undefined && !isSuiteTitle(CODE_ROOT, options.replay.check)) {
    throw new UsageError(`--replay "${options.replay.check}" names no check of the suites: give a check's full title, as the report's replay line does ("<rule IDs>: <title>", with "@<path>" for a property).`);
  }
  const previous = baseline === undefined
    ? undefined
    : await readBaselineFile(resolve(baseline.file), baseline.file, { allowMissing: baseline.update });
  if (options.write !== false) checkOutDir(options.outDir, given.out);
  announceOptIn(options);
  const { report, exitCode, interrupted, sessions } = await runInterruptibly({
    ...options,
    ...(baseline && previous && { baseline: { file: baseline.file, baseline: previous, update: baseline.update } }),
  });
  if (baseline?.update && previous) {
    if (report.completion === 'complete') {
      const updated = createBaseline(report, previous);
      await writeBaselineFile(resolve(baseline.file), updated, baseline.file);
      const n = updated.knownFailures.length;
      process.stderr.write(`wrote ${baseline.file}: ${n} known failure${n === 1 ? '' : 's'}\n`);
    } else {
      process.stderr.write(`${baseline.file} was not updated: the run did not complete (${report.completion}); run it again.\n`);
    }
  }
  // A replay whose title matches no check ran nothing: a usage error (exit 2), never a success.
  const replayMatched = options.replay === undefined || report.rules.some((r) => r.checks.some((c) => c.name === options.replay?.check));
  if (!replayMatched && !interrupted) {
    process.stderr.write(
      `\nThe check "${options.replay?.check}" did not run: no check has that title. The --replay title must be a check's full title, `
        + 'as in the report\'s replay line, and --only (and --suite) must select its rule. Exit code 2 (usage), whatever the '
        + 'summary above says: nothing was replayed.\n',
    );
  }
  if (process.env['GITHUB_ACTIONS'] === 'true') {
    for (const line of githubAnnotations(report)) process.stdout.write(`${line}\n`);
  }
  if (exitCode === 3) {
    process.stderr.write(
      `\nThe target "${report.target.name}" could not be reached: no check got an answer from it. ` +
        'Check the addresses in the target config, your network and proxy (HTTPS_PROXY), and that the service is up; ' +
        '"tds-conformance doctor --target ..." checks DNS, TLS and reachability without spending a token. ' +
        `The report with what is known is in ${options.outDir}.\n`,
    );
  }
  if (report.target.kind === 'live') {
    const r = report.resources;
    const open = sessions?.sessionsOpen ?? 0;
    process.stderr.write(`live target: ${r.tokens} token${r.tokens === 1 ? '' : 's'} created, ${r.sessionsOpened} session${r.sessionsOpened === 1 ? '' : 's'} opened, ${r.sessionsClosed} closed${open ? `, ${open} left open` : ''}\n`);
  }
  if (interrupted) {
    process.stderr.write(`\n${interruptedLine(interrupted, sessions, options.outDir)}\n`);
    return exitCodeOf(interrupted);
  }
  return replayMatched ? exitCode : EXIT_CODES.usage;
}

/** Before a live run with --allow-opt-in, says which opt-in rules will run and what they cost. */
function announceOptIn(options: RunOptions): void {
  if (options.target === 'sim' || !options.allowOptIn) return;
  const ids = selectRules(options.suite ?? 'service', options.only).filter((id) => getRule(id).where === 'opt-in');
  if (ids.length === 0) return;
  process.stderr.write(
    `--allow-opt-in: running ${ids.join(', ')} against ${options.target}. These fill the session pool (SESS-04), use `
      + 'both environments (ENV-01, ENV-03) or other agencies\' credentials (ACCESS-02, ACCESS-03): they take shared '
      + 'resources of the environment for a while. Sessions opened are closed at the end, also if the run is interrupted.\n',
  );
}
