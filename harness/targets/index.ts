export { ConfigError, loadTargetConfig, parseTargetConfig, resolveAccount, resolveSecret } from './config.ts';
export { releasePauses } from './slot-release.ts';
export { createLiveTarget, loadLiveTarget } from './live-target.ts';
export { createSimTarget, toAccount } from './sim-target.ts';
export { DEFAULT_PROBES, knowledge, parseApiRef } from './knowledge.ts';
export { createTransport, TransportError, toTransportError } from './transport.ts';

export type { AccountConfig, ConfigErrorCode, SecretRef, TargetConfig } from './config.ts';
export type { SimTargetOptions } from './sim-target.ts';
export type { ApiRef, Declarations, Probes, RestProbe, SoapProbe, TargetKnowledge } from './knowledge.ts';
export type { HttpRequest, HttpResponse, Transport, TransportErrorCode, TransportOptions } from './transport.ts';
export type { Account, EnvironmentEndpoints, SimControl, SimExtraAccounts, Target } from './types.ts';
