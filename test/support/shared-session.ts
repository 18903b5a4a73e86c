import { ConformanceSession } from '../../harness/runner.ts';

/**
 * The sessions of this test worker, one on the simulator and one for live targets, shared by the test files it runs
 * (the unit project does not isolate its files: this module outlives a file). Each run of a session is its own (its
 * configuration, reporter, session guard and checks; the harness's modules forget the last run's state when a worker
 * enters the next, harness/run-scope.ts); what is shared is what a run's start costs: Vitest loaded, its test worker
 * started and warm (harness/run/worker-pool.ts). A file must not close it; it ends with the test worker.
 */
const sessions = new Map<'sim' | 'live', Promise<ConformanceSession>>();

export function sharedSession(kind: 'sim' | 'live'): Promise<ConformanceSession> {
  let session = sessions.get(kind);
  if (!session) {
    session = ConformanceSession.open(kind);
    sessions.set(kind, session);
    // A session that could not open is not kept: the next file tries again.
    session.catch(() => sessions.delete(kind));
  }
  return session;
}
