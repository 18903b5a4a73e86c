/**
 * The judges: pure functions from what was sent and answered to the problems a rule finds, one module per rule area.
 * The suites (driving a client, probing a service) and `observe`/`judge` (recorded traffic) decide with the same code.
 */
export { plural, problem } from './problem.ts';
export { api03Problems } from './api-calls.ts';
export { cred01Problems, cred02OtherEnvironmentProblem, cred04Problem, readCred02 } from './credentials.ts';
export { env02Problems } from './environments.ts';
export {
  closeToken, peakOpen, sess05BodyProblem, sess05HeaderProblem, sess06Problem, sess07Problem, sess08PoolProblem, sess08StormProblem, STORM_GAP_MS, stormRun,
} from './sessions.ts';
export {
  soap01HeaderProblems, soap01SchemaProblem, requestSchema, soap03ManifestProblem, soap03UsernameTokenProblem, soap04ActionProblem, soap04TokenProblem,
  soap05ConversationIdsProblem, soap05ConversationProblem, soap05CpaIdProblem, TOKEN_CREATING,
} from './soap-requests.ts';
export {
  answerKind, answerSchema, err04Problem, err05Observation, issuedToken, soap02Problem, soap02SchemaProblem, STOK_CLAUSES, stokProblems,
} from './soap-answers.ts';
export { isJsonContentType, rest03Problems, rest05Problems } from './token-answer.ts';
export { err02DistinguishableProblem, err03Problems, err03Unchecked, err06KeepsProblem, err06LoopProblem, err07AnswerProblem, isInvalidClient, serviceSaid } from './token-errors.ts';
export { rest01Problems } from './token-request.ts';
export { api04Problem, api05Problem, life03Problem, renewableFrom, usableUntil } from './token-reuse.ts';

export type { SentApiCall } from './api-calls.ts';
export type { ClientIdAccount, Cred02Reading, ShowClientId } from './credentials.ts';
export type { TokenUse } from './environments.ts';
export type { Problem } from './problem.ts';
export type { PoolFullRefusal, Sess06Clause, SessionSeen, SessionSpan } from './sessions.ts';
export type { SentSoapRequest, SoapAccount } from './soap-requests.ts';
export { soap01SchemaVerdict } from './soap01-schema.ts';
export type { ValidateRequest } from './soap01-schema.ts';
export type { AnswerKind, SentIds, SoapAnswerEnvelope, SoapAnswerSeen, SoapAnswerStatus } from './soap-answers.ts';
export type { TokenAnswer } from './token-answer.ts';
export type { ReportedError, ServiceSaid } from './token-errors.ts';
export type { SentTokenRequest } from './token-request.ts';
export type { HeldToken, Life03Clause, RefusedToken, ReuseRequest } from './token-reuse.ts';
