/**
 * ENV-01 reads an answer that is neither an acceptance nor a refusal by difference in the token: a deployed PROD whose
 * REST APIs answer 400 to every call, its own tokens included, says nothing about whether it refuses CERT's tokens. The
 * REST clause is then unchecked (partial), not passed. Before, the control was the same token in its own environment
 * (which differs from the trial in everything behind the other base URL), and the 400 was read as PROD's refusal.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { killGroup, startLiveSim, type CliRun, type LiveSim } from '../support/live-run.ts';
import type { Report } from '../../harness/report/index.ts';
import { readFileSync } from 'node:fs';

let sim: LiveSim;
let run: CliRun | undefined;
let fronted = 0;

beforeAll(async () => {
  // PROD's published REST APIs (GET) answer 400 to every call; its token endpoint and SOAP are the simulator's.
  sim = await startLiveSim(() => 0, (r) => {
    if (r.env !== 'prod' || r.method !== 'GET') return undefined;
    fronted++;
    return { status: 400, headers: { 'content-type': 'application/json' }, body: '{"status":"NotProcessed","type":"Validation","message":"Missing required parameter"}' };
  });
});
afterAll(async () => {
  killGroup(run);
  await sim.close();
});

it('a PROD that answers 400 to every REST call leaves ENV-01.rest-bearer unchecked, the SOAP clauses judged', async () => {
  const out = join(sim.dir, 'out');
  run = sim.run(['--only', 'ENV-01', '--allow-opt-in'], out);
  const { code } = await run.exited;
  expect(fronted).toBeGreaterThan(0);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
  const env01 = report.rules.find((r) => r.id === 'ENV-01')!;
  expect(Object.fromEntries((env01.clauses ?? []).map((c) => [c.id, c.status]))).toEqual({
    'ENV-01.rest-bearer': 'unchecked', 'ENV-01.soap-sessionless': 'checked', 'ENV-01.soap-session': 'checked',
  });
  expect(env01.status).toBe('partial');
  expect(code).toBe(0);
}, 60_000);
