import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from './report/index.ts';
import { ConformanceSession, type RunOptions } from './runner.ts';
import { conformingProfile, coveringProfiles, type LatitudeProfile } from './sim/latitude.ts';

/**
 * The latitude property: the whole service suite passes on every conforming variant of the service. Each profile is
 * a simulator that chooses differently wherever the interface document leaves a choice (harness/spec/latitudes.ts);
 * a `fail`, `warn` or `error` on any of them is an over-reach of a check, printed with the profile and the rule.
 *
 * `TDS_LATITUDE_PROFILES` sets how many random profiles run (default 6; `npm test` runs more), `TDS_LATITUDE_SEED`
 * the seed (fixed, so that CI is reproducible).
 */
const PROFILES = Number(process.env.TDS_LATITUDE_PROFILES ?? 6);
const SEED = Number(process.env.TDS_LATITUDE_SEED ?? 20261123);
const quiet = { outDir: '', write: false, quiet: true, log: () => {} } satisfies Partial<RunOptions>;

let session: ConformanceSession;
beforeAll(async () => {
  session = await ConformanceSession.open('sim');
}, 60_000);
afterAll(async () => {
  await session?.close();
});

/** What a conforming service must never get: the rules and checks that failed, warned or errored. */
function overReach(report: Report): string[] {
  return report.rules
    .filter((r) => r.status === 'fail' || r.status === 'warn' || r.status === 'error')
    .map((r) => `${r.id} ${r.status}: ${r.checks.filter((c) => c.status === r.status).map((c) => `${c.name} — ${'message' in c ? c.message : ''}`.slice(0, 400)).join(' | ')}`);
}

async function runOn(profile: LatitudeProfile, seed: number): Promise<string[]> {
  const { report } = await session.run({ ...quiet, target: 'sim', suite: 'service', runs: 1, seed, profile });
  expect(report.summary.pass).toBeGreaterThan(0);
  return overReach(report);
}

describe('latitude: the service suite passes on every conforming variant of the service', () => {
  it('passes on profiles that together take every value of every freedom', async () => {
    for (const [i, profile] of coveringProfiles().entries()) {
      expect(await runOn(profile, SEED + i), `covering profile ${i}: ${JSON.stringify(profile)}`).toEqual([]);
    }
  }, 600_000);

  it(`passes on ${PROFILES} random conforming profiles (seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(conformingProfile(), fc.nat({ max: 1_000_000 }), async (profile, seed) => {
        const bad = await runOn(profile, seed);
        if (bad.length) throw new Error(`over-reach on a conforming profile (run seed ${seed}):\n${bad.join('\n')}\nprofile: ${JSON.stringify(profile)}`);
      }),
      // No shrinking: each case is a whole run; the failure names the rule and prints the profile.
      { seed: SEED, numRuns: PROFILES, endOnFailure: true },
    );
  }, 3_600_000);
});
