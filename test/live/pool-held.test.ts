/**
 * A CERT pool that another application holds full (every SessionCreateRQ refused with Client.ReachedTALimit, none of
 * the run's own sessions open or closed before) is a missing prerequisite that no rule of the service broke: the checks
 * that need a session are skipped saying so, naming no rule. Before, they named SESS-02 and SESS-04 ("SESS-02 failed"
 * where SESS-02 had only errored).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isSessionCreate, killGroup, poolFullAnswer, startLiveSim, type CliRun, type LiveSim } from '../support/live-run.ts';
import type { Report } from '../../harness/report/index.ts';

let sim: LiveSim;
let run: CliRun | undefined;

beforeAll(async () => {
  sim = await startLiveSim(() => 0, (r) => (r.env === 'cert' && isSessionCreate(r) ? poolFullAnswer(r.body) : undefined));
});
afterAll(async () => {
  killGroup(run);
  await sim.close();
});

it('skips the session checks naming the pool held by others, and no rule of the service', async () => {
  const out = join(sim.dir, 'out');
  run = sim.run(['--only', 'STOK-02,SESS-02'], out);
  await run.exited;
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
  // STOK-02's own check (its audits of every SessionCreateRS may pass on PROD's answers).
  const stok02 = report.rules.find((r) => r.id === 'STOK-02')!.checks.find((c) => /SessionCreateRQ with valid credentials/.test(c.name))!;
  expect(stok02.status).toBe('skipped');
  const reason = 'message' in stok02 ? String(stok02.message) : '';
  expect(reason).toMatch(/the run has opened no session of this account: sessions it did not open hold every slot/);
  expect(reason).not.toMatch(/SESS-0/);
  for (const r of report.rules.filter((x) => !x.notSelected)) expect(r.status, r.id).not.toBe('fail');
}, 60_000);
