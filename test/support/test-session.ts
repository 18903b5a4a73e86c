import { beforeAll } from 'vitest';
import type { ConformanceSession } from '../../harness/runner.ts';
import { runner } from './compiled.ts';

/**
 * The session on the simulator of this test worker, shared by the test files it runs (the unit project does not
 * isolate its files: this module, and the session, outlive a file). Each run of the session is its own (its
 * configuration, reporter and checks; the harness's modules forget the last run's state when a worker enters the
 * next, harness/run-scope.ts); what is shared is what costs a run's start — Vitest loaded, and its test worker started
 * and warm (harness/run/worker-pool.ts). The session ends with the test worker (its own worker process with it).
 */
let shared: Promise<ConformanceSession> | undefined;

/**
 * For tests that make many runs of the suites (the latitude property, the precision self-test): the worker's session
 * on the simulator, opened before the file's first test. Returns a getter for use inside the tests.
 */
export function useSession(): () => ConformanceSession {
  let session: ConformanceSession | undefined;
  beforeAll(async () => {
    shared ??= runner.ConformanceSession.open('sim');
    session = await shared;
  }, 60_000);
  return () => {
    if (!session) throw new Error('the session is not open yet');
    return session;
  };
}
