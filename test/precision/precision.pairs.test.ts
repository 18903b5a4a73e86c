import { precisionSuite } from './precision-suite.ts';
import { selftest } from '../support/compiled.ts';

const { samplePairs } = selftest;

/**
 * The defect-pair self-test's seeded sample (`tds-conformance selftest --pairs` runs every pair): two defects per
 * route-taker, paired with it; each defect's rule must still fail, with no hidden and no collateral verdict.
 * `TDS_PAIR_SEED` picks another sample.
 */
await precisionSuite('defect pairs, a seeded sample', samplePairs(Number(process.env.TDS_PAIR_SEED ?? 42), 2));
