import { precisionSuite } from './precision-suite.ts';

await precisionSuite('simulator defects, first half', (s, i) => s.kind === 'defect' && i % 2 === 0);
