import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectInterrupted, isSessionCreate, killGroup, startLiveSim, until, type CliRun, type LiveSim } from '../../test/support/live-run.ts';

/**
 * Ctrl-C while a SessionCreateRQ is in flight on a slow service (answered 6 s later, within the request time limit):
 * the worker waits for the answer and registers the session the service opened, and the main process closes it. Before,
 * the worker ended 3 s after the signal, the session stayed open on the service, and the run said every session was
 * closed.
 */
describe('interrupting a live run while a SessionCreateRQ is slow', () => {
  let sim: LiveSim;
  let run: CliRun | undefined;
  let creates = 0;
  beforeAll(async () => {
    sim = await startLiveSim((r) => {
      if (!isSessionCreate(r)) return 0;
      creates++;
      return 6_000;
    });
  });
  afterEach(() => killGroup(run));
  afterAll(async () => {
    await sim.close();
  });

  it('on SIGINT while a SessionCreateRQ waits for its answer, closes the session it opens and writes the report', async () => {
    const out = join(sim.dir, 'slow-create');
    run = sim.run(['--only', 'STOK-02'], out);
    await until(() => creates > 0, 'a SessionCreateRQ of the run is in flight');
    await new Promise((resolve) => setTimeout(resolve, 500));
    run.signalGroup('SIGINT');
    await expectInterrupted(sim, run, out, 'SIGINT', 130);
    expect(sim.core.openSessionCount()).toBe(0);
  }, 60_000);
});
