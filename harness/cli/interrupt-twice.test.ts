import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectInterrupted, isPing, isSessionClose, killGroup, startLiveSim, until, type CliRun, type LiveSim } from '../../test/support/live-run.ts';

/**
 * A second Ctrl-C quits at once, after one more attempt to close what is open; a signal to the CLI alone (its workers
 * keep running) stops the run just as well.
 */
describe('interrupting a live run twice, or the CLI alone', () => {
  let sim: LiveSim;
  let run: CliRun | undefined;
  /** While true, every SessionCloseRQ the simulator receives is never answered. */
  let hangCloses = false;
  beforeAll(async () => {
    sim = await startLiveSim((r) => (isSessionClose(r) ? (hangCloses ? Number.POSITIVE_INFINITY : 0) : isPing(r) ? 1_500 : 0));
  });
  afterEach(() => {
    killGroup(run);
    hangCloses = false;
  });
  afterAll(async () => {
    await sim.close();
  });

  it('on a second SIGINT, tries to close once more, writes the report and quits without waiting for the first closes', async () => {
    const out = join(sim.dir, 'twice');
    expect(sim.core.openSessionCount(), 'sessions were left open before this run').toBe(0);
    hangCloses = true;
    const before = sim.closes();
    run = sim.run(['--only', 'SESS-02', '--allow-opt-in'], out);
    await until(() => sim.closes() > before && sim.core.openSessionCount() > 0, 'a SessionCloseRQ of the run is in flight with its session open');
    run.signalGroup('SIGINT');
    // The main process's close, sent on the first SIGINT, hangs like the worker's did.
    await until(() => sim.closes() > before + 1, 'the main process sent its SessionCloseRQ');
    hangCloses = false;
    run.signalGroup('SIGINT');
    await expectInterrupted(sim, run, out, 'SIGINT', 130);
    expect(run.stderr()).toContain('SIGINT again: one more attempt to close the open sessions, then quitting.');
  }, 60_000);

  it('on SIGINT to the CLI alone, closes every session it opened, writes the report and exits 130', async () => {
    const out = join(sim.dir, 'alone');
    expect(sim.core.openSessionCount(), 'sessions were left open before this run').toBe(0);
    run = sim.run(['--only', 'SESS-02', '--allow-opt-in'], out);
    await until(() => sim.core.openSessionCount() > 0, 'the run has a session open');
    run.child.kill('SIGINT');
    await expectInterrupted(sim, run, out, 'SIGINT', 130);
  }, 60_000);
});
