/**
 * Judging a client from its real traffic: the recording proxy of `tds-conformance observe` (with fault injection on
 * the simulator upstream), the judge of the client rules and of the service rules answers show, and the report.
 */
export { runApplication } from './application.ts';
export { judgeClientRules } from './client-rules.ts';
export { Injector, INJECTIONS_HELP, parseInjections } from './inject.ts';
export { judgeTraffic, OBSERVED_RULES, tryValidator } from './judge.ts';
export { leanHeap } from './lean-heap.ts';
export { PROXY_SOAP_PATH, startRecordingProxy } from './proxy.ts';
export { registerSecretsOf } from './secrets.ts';
export { judgeServiceRules, OBSERVABLE_SERVICE_RULES } from './service-rules.ts';
export { knownFromConfig, Observation } from './session.ts';
export { Traffic } from './traffic.ts';
export { observedReport, toRecords } from './verdict.ts';
export { RunningJudge } from './running-judge.ts';

export type { ApplicationExit } from './application.ts';
export type { JudgeContext, KnownAccount, ObservedExchange, ObservedRequest, ObservedResponse } from './exchange.ts';
export { observedNow } from './exchange.ts';
export type { Injection } from './inject.ts';
export type { Judgement, JudgeOptions } from './judge.ts';
export type { PendingRequest, ProxyHooks, ProxyOptions, RecordingProxy } from './proxy.ts';
export type { ObservationOptions, ObservationResult } from './session.ts';
export type { ClauseVerdict, ObservedReportOptions } from './verdict.ts';
export type { RetainedState, RunningJudgeOptions } from './running-judge.ts';
