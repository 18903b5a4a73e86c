/**
 * Whole live runs of a service whose TokenCreateRQ takes a pool slot (test/live/token-slot.test.ts says why): STOK-01
 * fails alone in every file order. A file of its own so that its runs go beside the other files', not after them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { simulatorTarget } from './every-opt-in.ts';
import { cleanUp } from './support.ts';
import { clause, failed, run, status } from './token-slot-run.ts';

afterEach(cleanUp);

describe('a TokenCreateRQ that allocates a session fails STOK-01 alone in whole live runs', () => {
  it.each([
    { defect: 'stok01-token-takes-slot', fileOrderSeed: undefined },
    { defect: 'stok01-token-takes-slot', fileOrderSeed: 7 },
    { defect: 'stok01-token-slot-on-use', fileOrderSeed: undefined },
  ])('fails STOK-01 and no other rule in a whole run ($defect, file order $fileOrderSeed), the pool checks meeting a pool the tokens fill', async ({ defect, fileOrderSeed }) => {
    const config = await simulatorTarget([defect], true);
    const report = await run(config, fileOrderSeed === undefined ? {} : { fileOrderSeed });
    expect(failed(report), JSON.stringify(report.rules.find((x) => x.id === 'STOK-01')?.clauses)).toEqual(['STOK-01']);
    expect(clause(report, 'STOK-01.sessionless')).toBe('failed');
    // The pool checks say why they cannot tell (error), rather than fail SESS-02 or SESS-04.
    for (const id of ['SESS-02', 'SESS-04']) expect(['pass', 'partial', 'error', 'skipped'], id).toContain(status(report, id));
  }, 240_000);
});
