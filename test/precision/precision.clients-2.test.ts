import { precisionSuite } from './precision-suite.ts';

await precisionSuite('mutant clients, second half, and the reference subjects', (s, i) => (s.kind === 'mutant' && i % 2 === 1) || s.kind === 'reference');
