/**
 * A deployed service may release a session's pool slot a little after it acknowledged the close (the document gives
 * the release no time). Here a gateway refuses SessionCreateRQ as the pool being full for 400 ms after each close, as
 * such a service does; SESS-02 and SESS-04 send the create again after short pauses (3 s in all) and pass. Before, a
 * single SessionCreateRQ right after the close failed both, and at a slower rate both passed: a verdict of timing.
 * The time is the target config's `slotReleaseMs`: a team that declares its service releases slots within 0.2 s gets
 * the late release judged against that.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isSessionClose, isSessionCreate, killGroup, poolFullAnswer, startLiveSim, type CliRun, type LiveSim } from '../support/live-run.ts';
import type { Report } from '../../harness/report/index.ts';

const LAG_MS = 400;
let sim: LiveSim;
let run: CliRun | undefined;
let lastClose = 0;
let refusedLate = 0;

beforeAll(async () => {
  sim = await startLiveSim((r) => {
    if (isSessionClose(r)) lastClose = Date.now();
    return 0;
  }, (r) => {
    if (!isSessionCreate(r) || Date.now() - lastClose > LAG_MS) return undefined;
    refusedLate++;
    return poolFullAnswer(r.body);
  });
});
afterAll(async () => {
  killGroup(run);
  await sim.close();
});

it('a slot released 400 ms after the close is released: SESS-02 and SESS-04 pass', async () => {
  const out = join(sim.dir, 'out');
  run = sim.run(['--only', 'SESS-02,SESS-04', '--allow-opt-in', '--rate', '50'], out);
  const { code } = await run.exited;
  expect(refusedLate).toBeGreaterThan(0);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
  const status = Object.fromEntries(report.rules.filter((r) => ['SESS-02', 'SESS-04'].includes(r.id)).map((r) => [r.id, r.status]));
  // SESS-04's timeout clause needs the clock: partial on a live target.
  expect(status).toEqual({ 'SESS-02': 'pass', 'SESS-04': 'partial' });
  expect(code).toBe(0);
  expect(sim.core.openSessionCount()).toBe(0);
}, 90_000);

it('a slot released later than the config\'s slotReleaseMs declares is a slot the close kept: SESS-02 and SESS-04 do not pass', async () => {
  const file = join(sim.dir, 'target.json');
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), slotReleaseMs: 200 }));
  const out = join(sim.dir, 'out-200');
  const before = refusedLate;
  run = sim.run(['--only', 'SESS-02,SESS-04', '--allow-opt-in', '--rate', '50'], out);
  const { code } = await run.exited;
  expect(refusedLate).toBeGreaterThan(before);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
  const status = Object.fromEntries(report.rules.filter((r) => ['SESS-02', 'SESS-04'].includes(r.id)).map((r) => [r.id, r.status]));
  // Not waited out, the late release is a kept slot: SESS-02 fails, and SESS-04 with it ("closing a session frees its
  // slot", as for the simulator's sess02-close-keeps-slot). On a loaded machine the 0.2 s of pauses and the requests
  // may outlast part of the 0.4 s, and a check then meets the pool in between (`error`): never `pass`, as the default
  // 3 s gave above.
  expect(['fail', 'error']).toContain(status['SESS-02']);
  expect(['fail', 'error']).toContain(status['SESS-04']);
  // The evidence says how long the service was given, and where that is declared.
  const evidence = report.rules.filter((r) => ['SESS-02', 'SESS-04'].includes(r.id)).flatMap((r) => r.checks).flatMap((c) => ('evidence' in c ? c.evidence ?? [] : []));
  expect(evidence.join('\n')).toMatch(/refused as the pool being full \d+ time\(s\) over \d+ ms; the target config's slotReleaseMs gives the service 200 ms to release a slot/);
  expect(code).toBe(1);
  expect(sim.core.openSessionCount()).toBe(0);
}, 90_000);
