import fc from 'fast-check';
import { inject } from 'vitest';
import { providedRunConfig } from './run-config.ts';

// One seed per run (CI uses the fixed default): every property of the run is reproducible from the report.
const run = providedRunConfig(inject('tdsRun'));
fc.configureGlobal({ seed: run.seed, numRuns: run.runs, endOnFailure: false });
