/**
 * A run with SIGINT, SIGTERM and uncaught errors handled by the main process, the one that outlives its test
 * workers (a Ctrl-C in a terminal signals the whole process group, workers included):
 *
 * 1. The first signal stops the run: no token or session is created any more, this process closes every session
 *    registered with it (each close within {@link CLOSE_MS}), the tests are cancelled, and the report of what ran is
 *    written, marked `interrupted`. Exit code 130 (SIGINT) or 143 (SIGTERM).
 * 2. A second signal quits at once, after one more close attempt for what is still open ({@link SECOND_CLOSE_MS})
 *    and the report.
 * 3. An uncaught error does the same as a first signal, then exits with 1.
 */
import { ConformanceSession, type ActiveRun, type RunOptions, type RunOutcome } from '../runner.ts';
import type { CloseSummary, SessionCounts } from '../registry/index.ts';

/** Time limit of each close on the first signal or an uncaught error. */
export const CLOSE_MS = 5_000;
/** Time limit of the one more close attempt on a second signal. */
export const SECOND_CLOSE_MS = 2_000;
/**
 * How long the cancelled run may take to end: its workers finish a session create in flight and register it, which
 * takes up to the request time limit (a slow service), and a little more. A run with nothing in flight ends at once.
 */
function graceMs(requestTimeoutMs: number): number {
  // A timer waits at most 2^31 - 1 ms (a longer one fires at once).
  return Math.min(2_147_483_647, Math.max(3_500, requestTimeoutMs + 2_000));
}

export function exitCodeOf(signal: NodeJS.Signals): number {
  return signal === 'SIGTERM' ? 143 : 130;
}

function within<T>(promise: Promise<T> | undefined, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    (promise ?? Promise.resolve(undefined)).catch(() => undefined),
    new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms))),
  ]).finally(() => clearTimeout(timer));
}

/** The last line of an interrupted run: what became of its sessions, and where its report is. */
export function interruptedLine(signal: NodeJS.Signals, sessions: SessionCounts | undefined, outDir: string): string {
  const open = sessions?.sessionsOpen ?? 0;
  const closed = sessions === undefined
    ? 'the simulator\'s sessions ended with the run'
    : open === 0
      ? 'every session the run opened was closed'
      : `${open} session${open === 1 ? '' : 's'} could not be closed (the service did not answer in time) and stay${open === 1 ? 's' : ''} open until the service times ${open === 1 ? 'it' : 'them'} out`;
  return `Interrupted (${signal}): ${closed}; the report of what ran is in ${outDir}.`;
}

/** What a round of closes did, as a line of the console. */
export function describeCloses(summary: CloseSummary): string {
  const n = summary.closed + summary.refused.length + summary.open;
  if (n === 0) return 'no session was open.';
  const parts = [`${summary.closed} closed`];
  if (summary.refused.length) parts.push(`${summary.refused.length} refused (${[...new Set(summary.refused)].join(', ')}): already closed or expired`);
  if (summary.open) parts.push(`${summary.open} got no answer in time`);
  return `${n} open session${n === 1 ? '' : 's'}: ${parts.join(', ')}.`;
}

export interface InterruptibleOutcome extends RunOutcome {
  /** The signal that stopped the run, if one did. */
  readonly interrupted: NodeJS.Signals | undefined;
  /** A live run's session counts (the registry's); `undefined` for the simulator. */
  readonly sessions: SessionCounts | undefined;
}

/** A session on the simulator kept open between runs: the run server's (harness/cli/run-server.ts). */
let kept: ConformanceSession | undefined;

/**
 * Makes {@link runInterruptibly} run on the simulator in `session` (and leave it open) instead of opening a session of
 * its own; `undefined` goes back to a session per run. An interrupted run still closes it (the run server then ends).
 */
export function keepSimSession(session: ConformanceSession | undefined): void {
  kept = session;
}

export async function runInterruptibly(options: RunOptions, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Promise<InterruptibleOutcome> {
  let session: ConformanceSession | undefined;
  let active: ActiveRun | undefined;
  let stopping: NodeJS.Signals | undefined;
  let quitting = false;
  let stop!: (signal: NodeJS.Signals) => void;
  const stopped = new Promise<NodeJS.Signals>((resolve) => (stop = resolve));

  /** Second signal, or an error while stopping: one more close attempt, the report, and out. */
  const quit = async (code: number) => {
    if (quitting) return;
    quitting = true;
    const summary = await within(active?.closeAgain(SECOND_CLOSE_MS), SECOND_CLOSE_MS + 500);
    if (summary) log(describeCloses(summary));
    await within(active?.finish(0), 2_000);
    log(`\n${interruptedLine(stopping ?? 'SIGINT', active?.sessions(), options.outDir)}`);
    process.exit(code);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping === undefined) {
      stopping = signal;
      log(`\n${signal}: stopping the run, closing its sessions and writing the report (${signal === 'SIGTERM' ? 'SIGTERM' : 'Ctrl-C'} again to quit at once)…`);
      stop(signal);
      return;
    }
    log(`${signal} again: one more attempt to close the open sessions, then quitting.`);
    void quit(exitCodeOf(stopping));
  };
  const onCrash = (err: unknown) => {
    log(`tds-conformance: internal error: ${err instanceof Error ? err.message : String(err)}. Closing the run's sessions and writing the report.`);
    if (stopping !== undefined) return void quit(1);
    stopping = 'SIGTERM';
    void (async () => {
      await within(active?.interrupt(CLOSE_MS), CLOSE_MS + 500);
      await within(active?.finish(CLOSE_MS), CLOSE_MS + 2_000);
      process.exit(1);
    })();
  };
  // On before Vitest starts: a signal while it loads stops the run as soon as it can (an empty report, interrupted).
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('uncaughtException', onCrash);
  let closed = false;
  try {
    session = (options.target === 'sim' ? kept : undefined) ?? await ConformanceSession.open(options.target === 'sim' ? 'sim' : 'live');
    active = await session.start(options);
    const first = await Promise.race([active.outcome.then((o) => ({ outcome: o })), stopped.then((signal) => ({ signal }))]);
    if ('outcome' in first) return { ...first.outcome, interrupted: undefined, sessions: active.sessions() };
    const summary = await active.interrupt(CLOSE_MS);
    if (summary && summary.closed + summary.refused.length + summary.open > 0) log(describeCloses(summary));
    await within(active.outcome, graceMs(active.requestTimeoutMs));
    await within(session.close(), CLOSE_MS);
    closed = true;
    const report = await active.finish(CLOSE_MS);
    // Nothing of the stopped run may keep the process up (a close request still waiting for its time limit, say):
    // once the caller has printed its last lines, the process ends with the exit code it set.
    setTimeout(() => process.exit(), 1_000).unref();
    return { report, exitCode: report.exitCode, consultedDefects: new Map(), consultedFaults: new Map(), interrupted: first.signal, sessions: active.sessions() };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('uncaughtException', onCrash);
    if (!closed && session !== kept) await session?.close();
  }
}
