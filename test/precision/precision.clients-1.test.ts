import { precisionSuite } from './precision-suite.ts';

await precisionSuite('mutant clients, first half', (s, i) => s.kind === 'mutant' && i % 2 === 0);
