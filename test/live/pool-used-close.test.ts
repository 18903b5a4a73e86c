/**
 * Whole live runs (the simulator on loopback, every opt-in declared) of a service whose closes keep the slots of the
 * sessions that served a call: SESS-02 fails, not `error`, whatever the seed (test/live/pool-state.test.ts has the
 * pool checks' targeted runs; a file of its own so that its runs go beside the others', not after them).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, tempDir } from './support.ts';
import { sharedRun } from '../support/shared-session.ts';
import { simulatorTarget } from './every-opt-in.ts';

afterEach(cleanUp);

describe('pool-full answers judged on the harness\'s own session ledger, in whole runs (SESS-02, SESS-04)', () => {
  // A blind service kept the slot of a closed session only when the session had served a call: the other checks' used
  // sessions then filled the pool, and SESS-02's check, closing sessions it never used, saw a slot come back and took
  // the rest for another application's sessions (`error`, on most seeds). The pool checks now use a session before
  // closing it to free a slot, as an application does.
  it.each([1, 2])('fails SESS-02 (not error) in a whole run when only the closes of used sessions keep their slots (seed %i)', async (seed) => {
    const config = await simulatorTarget(['sess02-used-close-keeps-slot'], true);
    const { report } = await sharedRun({ target: config, seed, budget: { requestsPerSecond: 1000 }, outDir: join(tempDir('pool-out'), 'r'), write: false, quiet: true, log: () => {} });
    expect(report.rules.find((r) => r.id === 'SESS-02')?.status).toBe('fail');
    expect(report.rules.filter((r) => r.side === 'service' && ['fail', 'error'].includes(r.status)).map((r) => r.id)).toEqual(['SESS-02', 'SESS-04']);
  }, 120_000);
});
