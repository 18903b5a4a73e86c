import { describe } from 'vitest';
import { RANDOM_RUNS, randomRuns, SEED } from './latitude-suite.ts';
import { useSession } from '../support/test-session.ts';

/**
 * The latitude property's random runs (test/latitude/latitude-suite.ts): the whole service suite passes on random
 * conforming variants of the service, in two parts of their own seeds (latitude.property.test.ts has the per-file and
 * covering profiles).
 */
const session = useSession();

describe('latitude: the service suite passes on random conforming variants of the service', () => {
  randomRuns(session, Math.floor(RANDOM_RUNS / 2), SEED);
  randomRuns(session, RANDOM_RUNS - Math.floor(RANDOM_RUNS / 2), SEED + 1);
});
