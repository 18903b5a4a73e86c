/**
 * What the harness's modules keep for one run, forgotten when a worker starts another. A session that makes many runs
 * keeps its test worker from one run to the next (harness/run/worker-pool.ts): the test files and setup files are
 * evaluated again for each run, but the harness's modules are loaded once per worker, so their state for a run (the
 * budget counted in this worker, the sessions' ledgers, the transport's pace, the registry's client, account numbers)
 * must not reach the next run. Each such module registers how to reset it; the setup file of every test file enters
 * the run it belongs to, and a run not seen before resets them all.
 */
const resets: (() => void)[] = [];
let current: string | undefined;

/** Registers how to forget what a module kept for the run. */
export function onNewRun(reset: () => void): void {
  resets.push(reset);
}

/** The test file about to run belongs to `runId`: a run this worker has not been in resets what the last one kept. */
export function enterRun(runId: string): void {
  if (runId === current) return;
  if (current !== undefined) for (const reset of resets) reset();
  current = runId;
}
