import { precisionSuite } from './precision-suite.ts';

await precisionSuite('mutant clients and the reference subjects', (s) => s.kind !== 'defect');
