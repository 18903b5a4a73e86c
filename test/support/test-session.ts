import { afterAll, beforeAll } from 'vitest';
import type { ConformanceSession, SessionOptions } from '../../harness/runner.ts';
import { runner } from './compiled.ts';
import { sharedSession } from './shared-session.ts';

/**
 * For tests that make many runs of the suites (the latitude property, the precision self-test): the test worker's
 * session on the simulator of the harness test/support/compiled.ts loads (test/support/shared-session.ts), open before
 * the file's first test. With `options`, a session of the file's own, closed after its last test (the latitude
 * property's, whose runs mostly wait and so get more workers than the CPUs). Returns a getter for use inside the tests.
 */
export function useSession(options?: SessionOptions): () => ConformanceSession {
  let session: ConformanceSession | undefined;
  beforeAll(async () => {
    session = options ? await runner.ConformanceSession.open('sim', options) : await sharedSession('sim');
  }, 60_000);
  if (options) afterAll(async () => session?.close(), 60_000);
  return () => {
    if (!session) throw new Error('the session is not open yet');
    return session;
  };
}
