import { describeMutants } from '../../test/support/observe-mutants.ts';

// The mutants of the SOAP and session rules, observed with no driver (see test/support/observe-mutants.ts).
describeMutants(['SOAP', 'SESS']);
