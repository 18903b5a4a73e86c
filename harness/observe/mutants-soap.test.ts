import { describeMutants } from './describe-mutants.ts';

// The mutants of the SOAP and session rules, observed with no driver (see describe-mutants.ts).
describeMutants(['SOAP', 'SESS']);
