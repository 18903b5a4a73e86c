import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from './report/index.ts';
import { relative, sep } from 'node:path';
import { ConformanceSession, filesFor, selectRules, type RunOptions } from './runner.ts';
import { CODE_ROOT } from './package-info.ts';
import { conformingProfile, coveringProfiles, profileWith, type LatitudeProfile } from './sim/latitude.ts';

/**
 * The latitude property: the whole service suite passes on every conforming variant of the service. Each profile is
 * a simulator that chooses differently wherever the interface document leaves a choice (harness/spec/latitudes.ts);
 * a `fail`, `warn` or `error` on any of them is an over-reach of a check, printed with the profile and the rule.
 *
 * Every suite file has a simulator of its own, so one run of the suite checks one profile per file (`fileProfiles`):
 * a run of the random property gives each of the service suite's files its own random profile, and the covering
 * runs rotate the covering profiles over the files, so that every file meets every value of every freedom.
 *
 * `TDS_LATITUDE_RUNS` sets how many random runs (default 17: with the 12 files of the service suite, 204 random
 * profiles), `TDS_LATITUDE_SEED` the seed (fixed, so that CI is reproducible).
 */
const RUNS = Number(process.env.TDS_LATITUDE_RUNS ?? 17);
const SEED = Number(process.env.TDS_LATITUDE_SEED ?? 20261123);
const quiet = { outDir: '', write: false, quiet: true, log: () => {} } satisfies Partial<RunOptions>;

/** The service suite's files, as `fileProfiles` names them. */
const FILES = filesFor(selectRules('service'), 'service').map((f) => relative(CODE_ROOT, f).split(sep).join('/').replace(/\.js$/, '.ts')).sort();

let session: ConformanceSession;
beforeAll(async () => {
  session = await ConformanceSession.open('sim');
}, 60_000);
afterAll(async () => {
  await session?.close();
});

/** What a conforming service must never get: each check that failed, warned or errored, with the profile it met. */
function overReach(report: Report, profiles: Readonly<Record<string, LatitudeProfile>>): string[] {
  return report.rules
    .filter((r) => r.status === 'fail' || r.status === 'warn' || r.status === 'error')
    .flatMap((r) => r.checks.filter((c) => c.status === r.status).map((c) => {
      const message = 'message' in c ? String(c.message).slice(0, 400) : '';
      return `${r.id} ${r.status}: ${c.name} — ${message}\n  in ${c.file}, on profile ${JSON.stringify((c.file !== undefined && profiles[c.file.replace(/\.js$/, '.ts')]) || 'default')}`;
    }));
}

async function runOn(profiles: Readonly<Record<string, LatitudeProfile>>, seed: number): Promise<string[]> {
  const { report } = await session.run({ ...quiet, target: 'sim', suite: 'service', runs: 1, seed, fileProfiles: profiles });
  expect(report.summary.pass).toBeGreaterThan(0);
  return overReach(report, profiles);
}

describe('latitude: the service suite passes on every conforming variant of the service', () => {
  it('finds the service suite\'s files and gives each the profile named for it', async () => {
    expect(FILES.length).toBeGreaterThanOrEqual(10);
    // ERR-05 records the HTTP status of SOAP faults (INFO): 500 on the public service, 200 on this file's profile.
    const file = 'suites/service/soap-errors.test.ts';
    expect(FILES).toContain(file);
    const statusSeen = async (fileProfiles: Readonly<Record<string, LatitudeProfile>>) => {
      const { report } = await session.run({ ...quiet, target: 'sim', suite: 'service', runs: 1, only: ['ERR-05'], fileProfiles });
      return report.rules.find((r) => r.id === 'ERR-05')?.checks.some((c) => c.status === 'info' && c.matchesPublic === false);
    };
    expect(await statusSeen({})).toBe(false);
    expect(await statusSeen({ [file]: profileWith({ faultStatus: 200 }) })).toBe(true);
  }, 120_000);

  it('passes on profiles that together take every value of every freedom, in every file', async () => {
    const covering = coveringProfiles();
    for (let run = 0; run < covering.length; run++) {
      const profiles = Object.fromEntries(FILES.map((f, i) => [f, covering[(run + i) % covering.length]!]));
      expect(await runOn(profiles, SEED + run), `covering run ${run}`).toEqual([]);
    }
  }, 600_000);

  it(`passes on ${RUNS} runs of random conforming profiles, one per file (${RUNS * FILES.length} profiles, seed ${SEED})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.tuple(...FILES.map(() => conformingProfile())), fc.nat({ max: 1_000_000 }), async (profiles, seed) => {
        const byFile = Object.fromEntries(FILES.map((f, i) => [f, profiles[i]!]));
        const bad = await runOn(byFile, seed);
        if (bad.length) throw new Error(`over-reach on a conforming profile (run seed ${seed}):\n${bad.join('\n')}`);
      }),
      // No shrinking: each case is a whole run; the failure names the rule, the file and its profile.
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  }, 3_600_000);
});
