import { beforeAll } from 'vitest';
import type { ConformanceSession } from '../../harness/runner.ts';
import { runner } from './compiled.ts';
import { sharedSession } from './shared-session.ts';

/**
 * For tests that make many runs of the suites (the latitude property, the precision self-test): the test worker's
 * session on the simulator of the harness test/support/compiled.ts loads (test/support/shared-session.ts), open before
 * the file's first test. Returns a getter for use inside the tests.
 */
export function useSession(): () => ConformanceSession {
  let session: ConformanceSession | undefined;
  beforeAll(async () => {
    session = await sharedSession('sim', runner.ConformanceSession);
  }, 60_000);
  return () => {
    if (!session) throw new Error('the session is not open yet');
    return session;
  };
}
