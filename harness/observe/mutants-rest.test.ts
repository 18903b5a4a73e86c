import { describeMutants } from '../../test/support/observe-mutants.ts';

// The mutants of the REST and cross-cutting rules, observed with no driver (see test/support/observe-mutants.ts).
describeMutants(['CRED', 'REST', 'API', 'LIFE', 'ENV', 'ERR']);
