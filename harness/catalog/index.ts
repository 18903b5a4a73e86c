/**
 * The auth rules of the interface document as typed data: the catalog, the state tables, the credential encoding,
 * the error catalog, the limits, the environments and the endpoint registry. No I/O.
 */
export { allClauses, areas, findClause, getArea, getRule, isRuleId, matchRules, prerequisitesOf, ruleIdsInTitle, rules } from './catalog.ts';
export { notYetCovered } from './coverage.ts';
export { findLatitude, latitudes } from './latitudes.ts';
export { credentialEncoding } from './encoding.ts';
export { ENVIRONMENTS, environments, otherEnvironment } from './environments.ts';
export {
  findRestEndpoint, findSoapAction, releaseHistory, restEndpoints, soapActions,
} from './endpoints.ts';
export { describes, publicApiAuthError, publicApiForbidden, restTokenErrors, soapFaults } from './errors.ts';
export {
  CLIENT_ID_VERSION, DEFAULT_REST_DOMAIN, DEFAULT_SOAP_DOMAIN, FORM_CONTENT_TYPE, GRANT_TYPE, limits, TOKEN_PATH, TOKEN_TYPE,
} from './limits.ts';
export { sessionlessToken, sessionToken, stateTables } from './states.ts';
export { AREA_IDS, RULE_IDS } from './types.ts';

export type { EnvironmentInfo } from './environments.ts';
export type { FactSource, Release, RestEndpoint, SoapAction } from './endpoints.ts';
export type { RestTokenError, SoapFault } from './errors.ts';
export type { SessionlessState, SessionState, StateTable, Transition } from './states.ts';
export type { Area, AreaId, Clause, Environment, Latitude, Level, Rule, RuleId, Side, SourceRef, TokenKind, Where } from './types.ts';
