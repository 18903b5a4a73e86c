import { describeMutants } from './describe-mutants.ts';

// The mutants of the REST and cross-cutting rules, observed with no driver (see describe-mutants.ts).
describeMutants(['CRED', 'REST', 'API', 'LIFE', 'ENV', 'ERR']);
