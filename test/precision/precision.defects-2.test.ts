import { precisionSuite } from './precision-suite.ts';

await precisionSuite('simulator defects, second half', (s, i) => s.kind === 'defect' && i % 2 === 1);
