import type { ConformanceSession, RunOptions, RunOutcome } from '../../harness/runner.ts';
import { simWorkers } from '../../harness/run/session.ts';
import { runner } from './compiled.ts';

type Sessions = Pick<typeof ConformanceSession, 'open'>;

/**
 * The sessions of this test worker, one on the simulator and one for live targets per harness, shared by the test
 * files it runs (the unit project does not isolate its files: this module outlives a file). By default the harness
 * test/support/compiled.ts loads, as the precision self-test and the latitude property do: compiled (`npm test` builds
 * first), the runs' workers import it natively, and a test worker keeps one session where the live tests and the
 * libraries' runs opened one of their own on the sources beside it (a Vitest and a worker that transformed every
 * module: 3-6 s of CPU each, five or six times in a run of the tests). Each run of a session is its own (its
 * configuration, reporter, session guard and checks; the harness's modules forget the last run's state when a worker
 * enters the next, harness/run-scope.ts); what is shared is what a run's start costs: Vitest loaded, its test worker
 * started and warm (harness/run/worker-pool.ts). A file must not close it; it ends with the test worker.
 */
const shared = new Map<Sessions, Map<'sim' | 'live', Promise<ConformanceSession>>>();

export function sharedSession(wanted: 'sim' | 'live', sessions: Sessions = runner.ConformanceSession): Promise<ConformanceSession> {
  // A live session runs one file at a time in one worker; so does a simulator session on a machine of 2 CPUs or
  // fewer (harness/run/session.ts): there, one session serves both, and a test worker opens one Vitest and warms one
  // run worker where it opened two.
  const kind = wanted === 'live' && simWorkers() === 1 ? 'sim' : wanted;
  let byKind = shared.get(sessions);
  if (!byKind) shared.set(sessions, (byKind = new Map()));
  let session = byKind.get(kind);
  if (!session) {
    session = sessions.open(kind);
    byKind.set(kind, session);
    // A session that could not open is not kept: the next file tries again.
    session.catch(() => byKind.delete(kind));
  }
  return session;
}

/**
 * A run on this test worker's session of the kind its target needs (the simulator's, or the live one), as
 * `runConformance` would run it in a session of its own. Each run is its own; a run may take the worker of the last.
 */
export async function sharedRun(options: RunOptions): Promise<RunOutcome> {
  return (await sharedSession(options.target === 'sim' ? 'sim' : 'live')).run(options);
}
