import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectInterrupted, isPing, killGroup, startLiveSim, until, type CliRun, type LiveSim } from '../../test/support/live-run.ts';

/**
 * A live run (the simulator on loopback as the target) is interrupted while it holds a session open, by SIGINT or
 * SIGTERM to its whole process group, as a terminal's Ctrl-C does: the CLI and its test workers all get the signal.
 * The main process must close every session the run opened, write the report of what ran (marked interrupted) and
 * exit 130 (SIGINT) or 143 (SIGTERM).
 */
describe('interrupting a live run', () => {
  let sim: LiveSim;
  let run: CliRun | undefined;
  // Pings are slow, so that the run is caught with a session open.
  beforeAll(async () => {
    sim = await startLiveSim((r) => (isPing(r) ? 1_500 : 0));
  });
  afterEach(() => killGroup(run));
  afterAll(async () => {
    await sim.close();
  });

  it.each([['SIGINT', 130], ['SIGTERM', 143]] as const)('on %s to the process group, closes every session it opened, writes the report and exits %i', async (signal, exitCode) => {
    const out = join(sim.dir, signal);
    expect(sim.core.openSessionCount(), 'sessions were left open before this run').toBe(0);
    run = sim.run(['--only', 'SESS-02', '--allow-opt-in'], out);
    await until(() => sim.core.openSessionCount() > 0, 'the run has a session open');
    run.signalGroup(signal);
    await expectInterrupted(sim, run, out, signal, exitCode);
  }, 60_000);
});
