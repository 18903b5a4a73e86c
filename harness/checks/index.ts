export { registerTokensIn } from './evidence.ts';
export { CheckFailure, expectEqual, expectThat, failOn, inClause, show } from './failure.ts';
export { ruleProperty, ruleTest } from './rule-test.ts';
export { redact, registerPassword, registerSecret, secrets } from './secrets.ts';
export { closeTarget, currentTarget, runConfig } from './target.ts';

export type { Exchange } from './evidence.ts';
export type { CheckBody, CheckContext } from './rule-test.ts';
export {
  acknowledgedCloses, businessCall, closeOpenSessions, closeRequest, closesShownToRelease, credentialsOf, declaredCertAccounts, excerpt, isFault, newConversationId, noSessionSlot, obtainSoapToken, openSession,
  keptSlotSeen, openSessionCount, ping, recordKeptSlot, sessionLedger, postEnvelope, responseToken, sessionClose, sessionCreate, soapAccount, soapCall, soapUrl, tokenCreate, tokensThatMayHoldSlots,
  validateEnvelope,
} from './soap.ts';
export type { OpenSession, SessionLedger, SoapCall, SoapExchange } from './soap.ts';
export { Inconclusive, NotApplicable, OptInRequired, outcomeOf, PrerequisiteFailed } from './errors.ts';
export type { CheckErrorCode, ThrownOutcome } from './errors.ts';
