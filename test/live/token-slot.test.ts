/**
 * A TokenCreateRQ token that takes a slot of the caller's pool breaks STOK-01 ("Sessionless token: no server-side
 * session is allocated") and nothing else, on a live target too, where no control endpoint counts the sessions: the
 * simulator with `stok01-token-takes-slot`, served on loopback with the pool declared and opt-in rules allowed. STOK-01
 * sees it by difference (a close gives its slot back, and does not when a TokenCreateRQ comes between) or, when the
 * run's tokens fill the pool before STOK-01 runs, on the run's own record. The pool checks, which meet a pool full of
 * those tokens, must not lay it at SESS-02's or SESS-04's door: closed sessions keeping their slots would look the
 * same to them.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RuleId } from '../../harness/catalog/index.ts';
import type { Report } from '../../harness/report/model.ts';
import type { ConformanceSession } from '../../harness/run/session.ts';
import { sharedSession } from '../support/shared-session.ts';
import { simulatorTarget } from './every-opt-in.ts';
import { cleanUp, tempDir } from './support.ts';

afterEach(cleanUp);

async function run(config: string, options: { fileOrderSeed?: number; only?: RuleId[] } = {}): Promise<Report> {
  const session: ConformanceSession = await sharedSession('live');
  const { report } = await session.run({
    target: config, budget: { requestsPerSecond: 1000 }, outDir: join(tempDir('token-slot-out'), 'r'), write: false, quiet: true, log: () => {}, ...options,
  });
  return report;
}

const status = (r: Report, id: string) => r.rules.find((x) => x.id === id)?.status;
const clause = (r: Report, id: string) => r.rules.find((x) => x.id === id.split('.')[0])?.clauses?.find((c) => c.id === id)?.status;
const failed = (r: Report) => r.rules.filter((x) => x.side === 'service' && x.status === 'fail').map((x) => x.id);
const messages = (r: Report, id: string) => (r.rules.find((x) => x.id === id)?.checks ?? []).map((c) => ('message' in c ? String(c.message) : ''));

describe('a TokenCreateRQ that allocates a session fails STOK-01 alone on a live target', () => {
  it.each(['stok01-token-takes-slot', 'stok01-token-slot-on-use'])('fails STOK-01.sessionless by difference when STOK-01 runs first (%s): the slot a close released goes to the token', async (defect) => {
    const config = await simulatorTarget([defect], true);
    const report = await run(config, { only: ['STOK-01'] });
    expect(clause(report, 'STOK-01.sessionless')).toBe('failed');
    expect(messages(report, 'STOK-01').join('\n')).toMatch(/when the same close followed by SessionCreateRQ alone got a session: the sessionless token took the slot/);
  }, 120_000);

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

  it('leaves STOK-01 alone when closed sessions keep their slots (SESS-02\'s deviation fills the pool, not the tokens)', async () => {
    const config = await simulatorTarget(['sess02-close-keeps-slot'], true);
    const report = await run(config, { fileOrderSeed: 7 });
    expect(status(report, 'SESS-02')).toBe('fail');
    expect(status(report, 'STOK-01')).not.toBe('fail');
  }, 240_000);
});
