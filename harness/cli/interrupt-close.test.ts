import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectInterrupted, isSessionClose, killGroup, sessionTokenOf, startLiveSim, until, type CliRun, type LiveSim } from '../../test/support/live-run.ts';

/**
 * Ctrl-C (SIGINT to the process group) while the run's own SessionCloseRQ is slow, or never answered: the main
 * process does not wait on the worker's close (the worker dies with the group), it closes the session itself.
 */
describe('interrupting a live run while a SessionCloseRQ is in flight', () => {
  let sim: LiveSim;
  let run: CliRun | undefined;
  let mode: 'slow' | 'hang-first' = 'slow';
  const closing = new Set<string>();
  beforeAll(async () => {
    sim = await startLiveSim((r) => {
      if (!isSessionClose(r)) return 0;
      if (mode === 'slow') return 2_000;
      // The first SessionCloseRQ of each session is never answered (nor acted on); later ones are.
      const token = sessionTokenOf(r) ?? '';
      if (closing.has(token)) return 0;
      closing.add(token);
      return Number.POSITIVE_INFINITY;
    });
  });
  afterEach(() => killGroup(run));
  afterAll(async () => {
    await sim.close();
  });

  it.each([['is slow', 'slow'], ['never gets an answer', 'hang-first']] as const)('on SIGINT while a SessionCloseRQ %s, closes every session and writes the report', async (_what, given) => {
    mode = given;
    const out = join(sim.dir, given);
    const before = sim.closes();
    expect(sim.core.openSessionCount(), 'sessions were left open before this run').toBe(0);
    run = sim.run(['--only', 'SESS-02', '--allow-opt-in'], out);
    await until(() => sim.closes() > before && sim.core.openSessionCount() > 0, 'a SessionCloseRQ of the run is in flight with its session open');
    run.signalGroup('SIGINT');
    await expectInterrupted(sim, run, out, 'SIGINT', 130);
  }, 60_000);
});
