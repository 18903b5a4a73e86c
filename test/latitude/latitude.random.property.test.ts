import { describe } from 'vitest';
import { RANDOM_RUNS, randomRuns, SEED } from './latitude-suite.ts';
import { useSession } from '../support/test-session.ts';

/** The second part of the latitude property's random runs (test/latitude/latitude-suite.ts), with a seed of its own. */
const session = useSession();

describe('latitude: the service suite passes on random conforming variants of the service', () => {
  randomRuns(session, RANDOM_RUNS - Math.floor(RANDOM_RUNS / 2), SEED + 1);
});
