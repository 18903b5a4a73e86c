/**
 * Outcome classification: what an answer means (success, refusal, pool full, unknown action, anything else), in one
 * place, for the checks, the observer and the judge alike. Pure: no I/O.
 */
export { attribute, describeAttribution } from './attribute.ts';
export { DEFAULT_FAULT_CODES, withFaultCodes } from './fault-codes.ts';
export { classifyRest, describeRestAnswer, isTokenRefusal } from './rest-answer.ts';
export { classifySoap, describeSoapAnswer } from './soap-answer.ts';

export type { Attribution, Factor, Observed } from './attribute.ts';
export type { FaultCodes } from './fault-codes.ts';
export type { RestAnswer } from './rest-answer.ts';
export type { SoapAnswer } from './soap-answer.ts';
