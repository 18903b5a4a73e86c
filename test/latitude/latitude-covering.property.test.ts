import { describe, expect, it } from 'vitest';
import { FILES, RANDOM_RUNS, randomRuns, runOn, SEED } from './latitude-suite.ts';
import { useSession } from '../support/test-session.ts';
import { coveringProfiles } from '../../harness/sim/latitude.ts';

/**
 * The latitude property's second file (the first, and why two: latitude.property.test.ts): the covering runs, and the
 * second part of the random runs, with their own seed.
 */
const session = useSession();

describe('latitude: the service suite passes on every conforming variant of the service', () => {
  it('passes on profiles that together take every value of every freedom, in every file', async () => {
    const covering = coveringProfiles();
    for (let run = 0; run < covering.length; run++) {
      const profiles = Object.fromEntries(FILES.map((f, i) => [f, covering[(run + i) % covering.length]!]));
      const { report, bad } = await runOn(session(), profiles, SEED + run);
      expect(report.summary.pass).toBeGreaterThan(0);
      expect(bad, `covering run ${run}`).toEqual([]);
    }
  }, 600_000);
});

describe('latitude: the service suite passes on random conforming variants of the service', () => {
  randomRuns(session, RANDOM_RUNS - Math.floor(RANDOM_RUNS / 2), SEED + 1);
});
