import { UsageError } from '../../harness/cli/usage-error.ts';

/** For tests: the message of the UsageError `run` throws (any other error is rethrown; none is an error too). */
export function usage(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    if (err instanceof UsageError) return err.message;
    throw err;
  }
  throw new Error('no usage error');
}
