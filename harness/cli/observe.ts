import { resolve } from 'node:path';
import { INJECTIONS_HELP, Observation, observedNow, parseInjections, runApplication, tryValidator } from '../observe/index.ts';
import { writeReports, type Report } from '../report/index.ts';
import type { EnvelopeValidator } from '../soap/index.ts';
import type { RuleId } from '../catalog/index.ts';
import { listening, parse, parseHost, parseInteger, parseOnly } from './args.ts';
import { standInOption } from './stand-in-option.ts';
import { UsageError } from './usage-error.ts';
import { checkOutDir } from './preflight.ts';

export const OBSERVE_HELP = `Usage: tds-conformance observe [--upstream sim|cert|<config.json>] [options] [-- <command>]

Judges a client from its real traffic, with no driver: a recording proxy on loopback for each environment of the
upstream (REST at its root, SOAP at /websvc). Point the application at the printed addresses and run its normal
workload; when the observation ends, the client rules (and the service rules the answers show) are judged from what
was observed and the usual reports written. A rule the traffic cannot decide is not-applicable, saying what workload
(or --inject) would exercise it.

With "-- <command>", observe runs the application itself, with TDS_CERT_REST_URL, TDS_CERT_SOAP_URL (and PROD's) set
to the proxy and, with the simulator upstream, TDS_CERT_EPR, TDS_CERT_PCC, TDS_CERT_PASSWORD set to its account; the
observation ends when the command exits, and covers the application's whole run (sessions left open are not closed).
One word after "--" is a shell command line ("npm start && npm run report"); several are the command and its
arguments, each kept as given (observe -- python3 -c 'import app; app.main()').

Options:
  --upstream <sim|cert|file.json>  what the proxy forwards to (default: sim, the built-in simulator)
  --port <n>                       port of the first environment's proxy, the next ones follow (default: free ports)
  --host <addr>                    address to listen on (default: 127.0.0.1, loopback only)
  --out <dir>                      where to write the reports (default: reports/latest)
  --inject <what>                  fault injection, simulator upstream only (repeatable):
${INJECTIONS_HELP}
  --duration <s>                   end the observation after <s> seconds
  --until-idle <s>                 end it after <s> seconds without traffic (once traffic was seen)
  --pool-size <n>                  the session pool the application is configured with (SESS-08)
  --sim-profile <profile.json>     the simulator upstream answers as the target a live run learnt this profile from
                                   (its stand-in: its texts, token shape, prefixes, statuses, latency)
  --with-deviations                with --sim-profile: also the target's deviations the simulator can reproduce
  --whole-run                      the observation covers the application's whole run, up to its exit (SESS-06)
  --only <ids>                     judge only these rules (IDs, areas, globs)
  --seed <n>                       seed of the simulator's accounts (default 1)

Ends on Ctrl-C, --duration, --until-idle or the command's exit. Nothing written holds a password or a token.
Exit codes: 0 no MUST rule failed, 1 a MUST rule failed or a check errored, 2 usage or configuration error,
3 the upstream left requests unanswered (the proxy answered them 502; the report's runErrors say which).`;

function positiveSeconds(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} takes a number of seconds greater than 0, not "${value}".`);
  return n;
}

/** The summary printed at the end: the verdicts that need a look. */
export function summaryLines(report: Report, outDir: string, exchanges: number): string[] {
  const judged = report.rules.filter((r) => report.selection.includes(r.id));
  const lines = [`${exchanges} exchange(s) recorded; ${judged.length} rules judged.`];
  for (const r of judged) {
    if (r.status === 'pass' || r.status === 'info') continue;
    const why = r.status === 'fail' || r.status === 'warn'
      ? (r.checks.find((c) => c.status === r.status) as { message?: string } | undefined)?.message
      : r.reason;
    lines.push(`  ${r.id.padEnd(9)} ${r.status.padEnd(14)} ${why ?? ''}`);
  }
  const s = report.summary;
  for (const e of report.runErrors) lines.push(`  run error ${e.code}: ${e.message}`);
  lines.push(`pass ${s.pass}, partial ${s.partial}, fail ${s.fail}, warn ${s.warn}, info ${s.info}, not-applicable ${s.notApplicable}, skipped ${s.skipped}, error ${s.error}`);
  lines.push(`Reports: ${outDir}`);
  return lines;
}

/**
 * What `observe` does once the traffic stopped: the schema validator (when SOAP was seen), the judgement, the reports
 * written to `outDir` and the summary (redacted). `bench/observe.ts` times exactly this.
 */
export async function finishObservation(observation: Observation, options: {
  wholeRun: boolean; only?: readonly RuleId[] | undefined; outDir: string;
  /** How the schema validator starts (default {@link tryValidator}; `undefined` from it: the schema clauses say so). */
  startValidator?: () => Promise<EnvelopeValidator | undefined>;
}): Promise<{ exitCode: number; summary: string[] }> {
  // An observation started with its validator validated the envelopes as they came; else one is started now.
  const validator = !observation.validating && observation.soapSeen ? await (options.startValidator ?? tryValidator)() : undefined;
  try {
    const { report } = await observation.judge({ wholeRun: options.wholeRun, only: options.only, validator });
    const written = await writeReports(report, options.outDir, observation.redactor);
    const summary = observation.redactor.redact(summaryLines(written.report, options.outDir, observation.proxy.count()).join('\n')).split('\n');
    return { exitCode: written.report.exitCode, summary };
  } finally {
    await validator?.close();
  }
}

export async function observeCommand(args: readonly string[], signal?: AbortSignal): Promise<number> {
  const { values, positionals } = parse('observe', args, {
    upstream: { type: 'string', default: 'sim' },
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    out: { type: 'string', default: 'reports/latest' },
    inject: { type: 'string', multiple: true },
    duration: { type: 'string' },
    'until-idle': { type: 'string' },
    'pool-size': { type: 'string' },
    'whole-run': { type: 'boolean', default: false },
    only: { type: 'string', multiple: true },
    seed: { type: 'string' },
    'sim-profile': { type: 'string' },
    'with-deviations': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  });
  if (values.help) {
    process.stdout.write(`${OBSERVE_HELP}\n`);
    return 0;
  }
  const stand = standInOption(values['sim-profile'], values['with-deviations'], values.upstream === 'sim' ? undefined : `it goes with --upstream sim, not "${values.upstream}"`);
  const dash = args.indexOf('--');
  const command = dash >= 0 ? shellCommand(args.slice(dash + 1)) : '';
  if (positionals.length > 0 && dash < 0) {
    throw new UsageError(`observe takes no argument "${positionals[0]}"; to run the application under observation, put its command after "--": tds-conformance observe -- <command>.`);
  }
  if (dash >= 0 && command === '') throw new UsageError('nothing after "--": give the command that runs the application, as in: tds-conformance observe -- npm start.');
  const port = parseInteger('port', values.port, 0, 65_535);
  const poolSize = parseInteger('pool-size', values['pool-size'], 1);
  const seed = parseInteger('seed', values.seed, 0);
  const duration = positiveSeconds('duration', values.duration);
  const idle = positiveSeconds('until-idle', values['until-idle']);
  const injections = parseInjections(values.inject ?? []);
  const only = parseOnly(values.only);
  const outDir = resolve(values.out);
  // Before the observation starts: a --out that cannot take the reports would lose it at the end.
  if (values.out.trim() === '') throw new UsageError('--out is empty: give the directory for the reports (default: reports/latest).');
  checkOutDir(outDir, values.out);

  const host = await parseHost(values.host);
  const observation = await listening(host, () => Observation.start({
    upstream: values.upstream, host, injections, startValidator: tryValidator, ...(stand && { simProfile: { profile: stand.profile, defects: stand.defects } }),
    ...(port !== undefined && { port }), ...(poolSize !== undefined && { sessionPoolSize: poolSize }), ...(seed !== undefined && { seed }),
  }));
  const out = process.stdout;
  let wholeRun = values['whole-run'];
  try {
    out.write(`tds-conformance observe: recording proxy (upstream: ${values.upstream}${injections.length ? `; injections: ${(values.inject ?? []).join(', ')}` : ''})\n`);
    out.write(`${observation.banner().join('\n')}\n\n`);
    const stop = new AbortController();
    const onSignal: { int?: () => void; term?: () => void } = {};
    const ended = new Promise<string>((resolveEnd) => {
      const end = (why: string) => () => resolveEnd(why);
      onSignal.int = end('interrupted (Ctrl-C)');
      onSignal.term = end('terminated');
      process.once('SIGINT', onSignal.int);
      process.once('SIGTERM', onSignal.term);
      signal?.addEventListener('abort', end('stopped'), { once: true });
      const timers: NodeJS.Timeout[] = [];
      if (duration !== undefined) timers.push(setTimeout(end(`--duration ${duration} s reached`), duration * 1000));
      if (idle !== undefined) {
        timers.push(setInterval(() => {
          if (observation.proxy.count() > 0 && observation.proxy.inFlight() === 0 && observedNow() - observation.proxy.lastActivity() >= idle * 1000) resolveEnd(`no traffic for ${idle} s`);
        }, 200));
      }
      stop.signal.addEventListener('abort', () => timers.forEach((t) => clearTimeout(t)), { once: true });
    });
    let why: string;
    if (command) {
      out.write(`Running the application: ${command}\n\n`);
      let failedToStart: string | undefined;
      const run = runApplication(command, observation.childEnvironment(), { signal: stop.signal }).then((exit) => {
        if (exit.kind === 'failed-to-start') return (failedToStart = `the command could not start: ${exit.message}`);
        // The shell's own "command not found" (127) or "not executable" (126), with no traffic: the application never
        // ran. (An application that ran and then exited so did run: its traffic is judged as the whole run's.)
        if ((exit.code === 127 || exit.code === 126) && observation.proxy.count() === 0) {
          return (failedToStart = `the command could not start: the shell could not run it (exit code ${exit.code}: ${exit.code === 127 ? 'no such command' : 'not executable'})`);
        }
        wholeRun = true;
        return `the application exited (${exit.code !== null ? `code ${exit.code}` : `signal ${exit.signal}`})`;
      });
      why = await Promise.race([run, ended]);
      if (!wholeRun) {
        stop.abort();
        await run;
        wholeRun = false;
      }
      // Nothing was observed of an application that never ran: a usage error, not an empty observation.
      if (failedToStart !== undefined && observation.proxy.count() === 0) {
        throw new UsageError(`${failedToStart}: "${command}". Give the command that runs the application, as you would type it in a shell.`);
      }
    } else {
      out.write('Point the application at these addresses and run its workload. Stop with Ctrl-C.\n\n');
      why = await ended;
    }
    stop.abort();
    if (onSignal.int) process.off('SIGINT', onSignal.int);
    if (onSignal.term) process.off('SIGTERM', onSignal.term);
    out.write(`Observation ended: ${why}. Judging…\n`);
    const done = await finishObservation(observation, { wholeRun, only, outDir });
    out.write(`${done.summary.join('\n')}\n`);
    return done.exitCode;
  } finally {
    await observation.close();
  }
}

/**
 * The shell command line that runs `words` (what followed "--"): one word is a command line of its own, given to the
 * shell as it is; several are a command and its arguments, each quoted for the shell, so that an argument with spaces
 * or quotes (`python3 -c 'import app'`) reaches the command as one argument, as the user's shell gave it.
 */
export function shellCommand(words: readonly string[]): string {
  if (words.length === 1) return words[0]!.trim();
  return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", "'\\''")}'`)).join(' ').trim();
}
