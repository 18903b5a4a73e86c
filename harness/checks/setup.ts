import { afterAll, expect } from 'vitest';
import { suiteFileKey } from '../package-info.ts';
import { installDrain } from './registry.ts';
import { closeOpenSessions } from './soap.ts';
import { secrets } from './secrets.ts';
import { closeTarget, consultedDefects, runConfig } from './target.ts';
import { consultedFaults, resetConsultedFaults } from './consulted-faults.ts';
import { flushTraffic, setFileScope } from './trace.ts';
import { flushFacts } from './profile-facts.ts';
import { mark } from '../timing.ts';
import { enterRun } from '../run-scope.ts';
import { followSessionEnv } from '../run/worker-env.ts';

// A worker kept from an earlier run of the session forgets what the harness's modules kept for that run, and takes the
// environment the session's next runs ask for (their password variables, say) before each.
enterRun(runConfig().trace?.runId ?? 'default');
followSessionEnv();

// A worker of a live run, signalled with its process group (Ctrl-C), first registers a session it is opening.
installDrain(runConfig());

// Test files share a worker (isolate: false): each starts with no secrets, so the secrets of earlier files (every token
// they were issued) do not pile up in the worker's redactor.
secrets.clear();
resetConsultedFaults();

// Requests sent outside any check (the sessions the file left open, closed below) are traced as the file's.
const testPath = expect.getState().testPath;
setFileScope(testPath === undefined ? undefined : suiteFileKey(testPath));
mark(`file-start ${testPath === undefined ? '' : suiteFileKey(testPath)}`, 'worker');

// Setup file of the conformance project: each test file gets its own target. When the file is done — whether its
// checks passed or failed — every session it opened and did not close is closed, then the target. The schema
// validator's JVM is not closed here: it serves every file of the worker (one JVM per worker, not per file), does not
// hold the worker open while idle, and is killed when the worker exits.
afterAll(async ({}, file) => {
  await closeOpenSessions();
  // The simulator defects the file's target asked about, for the session (the self-test reuses a defect-free run's
  // verdicts for the files that never asked about a subject's defects).
  file.meta.tdsDefects = consultedDefects();
  // The deliberate faults its clients asked about (the self-test's mutant clients share a fault-free run likewise).
  file.meta.tdsFaults = consultedFaults();
  await closeTarget();
  // The file's traffic is redacted with its secrets, which the next file's start forgets: written now.
  flushTraffic();
  await flushFacts(runConfig());
  mark('file-end', 'worker');
}, 60_000);
