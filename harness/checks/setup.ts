import { afterAll } from 'vitest';
import { closeTarget } from './target.ts';

// Setup file of the conformance project: each test file gets its own target, closed when the file is done.
afterAll(async () => {
  await closeTarget();
});
