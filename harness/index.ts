/**
 * `tds-auth-conformance`: the harness as a library. The CLI (`tds-conformance`) is built on the same entry points.
 */
export { ConformanceSession, runConformance, selectRules } from './runner.ts';
export { ClientError } from './clients/protocol.ts';
export { serveDriver } from './clients/serve-driver.ts';
export { DriverFailure, DriverProcess } from './clients/driver-process.ts';
export { basicAuthorization, buildClientId, decodeAuthorization, encodeRestCredentials } from './credentials/index.ts';
export { createSimulator } from './msw.ts';
export { defects, SimCore, startSimServer } from './sim/index.ts';
export { getRule, rules } from './catalog/index.ts';
export { ConfigError, loadTargetConfig } from './targets/index.ts';
export { loadLearnedProfile, ProfileFileError, standIn } from './profile/serve.ts';

export type { RunOptions, RunOutcome, SessionOptions, SuiteName } from './runner.ts';
export type {
  ClientAdapter, ConfigureRequest, DriverAnswer, DriverError, DriverErrorKind, DriverRequest, RestCallResult, SessionOpenResult, SoapCallResult,
} from './clients/protocol.ts';
export type { Report, RuleResult } from './report/index.ts';
export type { Rule, RuleId } from './catalog/index.ts';
export type { TargetConfig } from './targets/index.ts';
export type { LearnedDeviation, LearnedProfile } from './profile/types.ts';
