import { describe, expect, it } from 'vitest';
import { FILES, RANDOM_RUNS, randomRuns, runOn, SEED } from './latitude-suite.ts';
import { useSession } from '../support/test-session.ts';
import { coveringProfiles, profileWith, type LatitudeProfile } from '../../harness/sim/latitude.ts';

/**
 * The latitude property (test/latitude/latitude-suite.ts): the whole service suite passes on every conforming variant of the
 * service. This file: the per-file profiles reach their files, the covering runs, and the first part of the random
 * runs (the rest: latitude.random.property.test.ts, so that Vitest runs the two side by side).
 */
const session = useSession();

describe('latitude: the service suite passes on every conforming variant of the service', () => {
  it('finds the service suite\'s files and gives each the profile named for it', async () => {
    expect(FILES.length).toBeGreaterThanOrEqual(10);
    // ERR-05 records the HTTP status of SOAP faults (INFO): 500 on the public service, 200 on this file's profile.
    const file = 'suites/service/soap-errors.test.ts';
    expect(FILES).toContain(file);
    const statusSeen = async (fileProfiles: Readonly<Record<string, LatitudeProfile>>) => {
      const { report } = await runOn(session(), fileProfiles, SEED, ['ERR-05']);
      return report.rules.find((r) => r.id === 'ERR-05')?.checks.some((c) => c.status === 'info' && c.matchesPublic === false);
    };
    expect(await statusSeen({})).toBe(false);
    expect(await statusSeen({ [file]: profileWith({ faultStatus: 200 }) })).toBe(true);
  }, 120_000);

  it('passes on profiles that together take every value of every freedom, in every file', async () => {
    const covering = coveringProfiles();
    for (let run = 0; run < covering.length; run++) {
      const profiles = Object.fromEntries(FILES.map((f, i) => [f, covering[(run + i) % covering.length]!]));
      const { report, bad } = await runOn(session(), profiles, SEED + run);
      expect(report.summary.pass).toBeGreaterThan(0);
      expect(bad, `covering run ${run}`).toEqual([]);
    }
  }, 600_000);

  randomRuns(session, Math.floor(RANDOM_RUNS / 2), SEED);
});
