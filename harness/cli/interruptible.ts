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
import type { SessionCounts } from '../registry/index.ts';

/** Time limit of each close on the first signal or an uncaught error. */
export const CLOSE_MS = 5_000;
/** Time limit of the one more close attempt on a second signal. */
export const SECOND_CLOSE_MS = 2_000;
/** How long the cancelled run may take to end (workers finish a session create in flight and register it). */
const GRACE_MS = 3_500;

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

export interface InterruptibleOutcome extends RunOutcome {
  /** The signal that stopped the run, if one did. */
  readonly interrupted: NodeJS.Signals | undefined;
  /** A live run's session counts (the registry's); `undefined` for the simulator. */
  readonly sessions: SessionCounts | undefined;
}

export async function runInterruptibly(options: RunOptions, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Promise<InterruptibleOutcome> {
  const session = await ConformanceSession.open(options.target === 'sim' ? 'sim' : 'live');
  let active: ActiveRun | undefined;
  let stopping: NodeJS.Signals | undefined;
  let quitting = false;
  let stop!: (signal: NodeJS.Signals) => void;
  const stopped = new Promise<NodeJS.Signals>((resolve) => (stop = resolve));

  /** Second signal, or an error while stopping: one more close attempt, the report, and out. */
  const quit = async (code: number) => {
    if (quitting) return;
    quitting = true;
    await within(active?.closeAgain(SECOND_CLOSE_MS), SECOND_CLOSE_MS + 500);
    await within(active?.finish(0), 2_000);
    const open = active?.sessions()?.sessionsOpen ?? 0;
    if (open > 0) log(`${open} session${open === 1 ? '' : 's'} could not be closed and stay${open === 1 ? 's' : ''} open until the service times ${open === 1 ? 'it' : 'them'} out.`);
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
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('uncaughtException', onCrash);
  let closed = false;
  try {
    active = await session.start(options);
    const first = await Promise.race([active.outcome.then((o) => ({ outcome: o })), stopped.then((signal) => ({ signal }))]);
    if ('outcome' in first) return { ...first.outcome, interrupted: undefined, sessions: active.sessions() };
    await active.interrupt(CLOSE_MS);
    await within(active.outcome, GRACE_MS);
    await within(session.close(), CLOSE_MS);
    closed = true;
    const report = await active.finish(CLOSE_MS);
    return { report, exitCode: report.exitCode, interrupted: first.signal, sessions: active.sessions() };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('uncaughtException', onCrash);
    if (!closed) await session.close();
  }
}
