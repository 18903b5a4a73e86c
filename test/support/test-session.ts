import { afterAll, beforeAll } from 'vitest';
import type { ConformanceSession } from '../../harness/runner.ts';
import { runner } from './compiled.ts';

/**
 * For tests that make many runs of the suites (the latitude property, the precision self-test): a session on the
 * simulator opened before the file's tests and closed after them. Returns a getter for use inside the tests.
 */
export function useSession(): () => ConformanceSession {
  let session: ConformanceSession | undefined;
  beforeAll(async () => {
    session = await runner.ConformanceSession.open('sim');
  }, 60_000);
  afterAll(async () => {
    await session?.close();
  });
  return () => {
    if (!session) throw new Error('the session is not open yet');
    return session;
  };
}
