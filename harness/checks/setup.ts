import { afterAll } from 'vitest';
import { installDrain } from './registry.ts';
import { closeOpenSessions, closeValidator } from './soap.ts';
import { closeTarget, runConfig } from './target.ts';

// A worker of a live run, signalled with its process group (Ctrl-C), first registers a session it is opening.
installDrain(runConfig());

// Setup file of the conformance project: each test file gets its own target. When the file is done — whether its
// checks passed or failed — every session it opened and did not close is closed, then the target.
afterAll(async () => {
  await closeOpenSessions();
  await closeValidator();
  await closeTarget();
}, 60_000);
