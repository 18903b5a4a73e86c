import { afterAll } from 'vitest';
import { installDrain } from './registry.ts';
import { closeOpenSessions } from './soap.ts';
import { secrets } from './secrets.ts';
import { closeTarget, runConfig } from './target.ts';

// A worker of a live run, signalled with its process group (Ctrl-C), first registers a session it is opening.
installDrain(runConfig());

// Test files share a worker (isolate: false): each starts with no secrets, so the secrets of earlier files (every token
// they were issued) do not pile up in the worker's redactor.
secrets.clear();

// Setup file of the conformance project: each test file gets its own target. When the file is done — whether its
// checks passed or failed — every session it opened and did not close is closed, then the target. The schema
// validator's JVM is not closed here: it serves every file of the worker (one JVM per worker, not per file), does not
// hold the worker open while idle, and is killed when the worker exits.
afterAll(async () => {
  await closeOpenSessions();
  await closeTarget();
}, 60_000);
