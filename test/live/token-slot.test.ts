/**
 * A TokenCreateRQ token that takes a slot of the caller's pool breaks STOK-01 ("Sessionless token: no server-side
 * session is allocated") and nothing else, on a live target too, where no control endpoint counts the sessions: the
 * simulator with `stok01-token-takes-slot`, served on loopback with the pool declared and opt-in rules allowed. STOK-01
 * sees it by difference (a close gives its slot back, and does not when a TokenCreateRQ comes between) or, when the
 * run's tokens fill the pool before STOK-01 runs, on the run's own record. The pool checks, which meet a pool full of
 * those tokens, must not lay it at SESS-02's or SESS-04's door: closed sessions keeping their slots would look the
 * same to them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { simulatorTarget } from './every-opt-in.ts';
import { cleanUp } from './support.ts';
import { clause, messages, run, status } from './token-slot-run.ts';

afterEach(cleanUp);

describe('a TokenCreateRQ that allocates a session fails STOK-01 alone on a live target', () => {
  it.each(['stok01-token-takes-slot', 'stok01-token-slot-on-use'])('fails STOK-01.sessionless by difference when STOK-01 runs first (%s): the slot a close released goes to the token', async (defect) => {
    const config = await simulatorTarget([defect], true);
    const report = await run(config, { only: ['STOK-01'] });
    expect(clause(report, 'STOK-01.sessionless')).toBe('failed');
    expect(messages(report, 'STOK-01').join('\n')).toMatch(/when the same close followed by SessionCreateRQ alone got a session: the sessionless token took the slot/);
  }, 120_000);

  it('leaves STOK-01 alone when closed sessions keep their slots (SESS-02\'s deviation fills the pool, not the tokens)', async () => {
    const config = await simulatorTarget(['sess02-close-keeps-slot'], true);
    const report = await run(config, { fileOrderSeed: 7 });
    expect(status(report, 'SESS-02')).toBe('fail');
    expect(status(report, 'STOK-01')).not.toBe('fail');
  }, 240_000);
});
