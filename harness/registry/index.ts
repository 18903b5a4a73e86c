export { registryClient, RegistryUnreachable } from './client.ts';
export { SessionRegistry } from './registry.ts';
export { serveRegistry } from './server.ts';
export { sessionCloseEnvelope, soapSessionCloser } from './soap-closer.ts';
export { KEY_HEADER } from './wire.ts';

export type { RegistryClient } from './client.ts';
export type { CloseAnswer, CloseSummary, Limits, RegisteredSession, Reservation, SessionCloser, SessionCounts } from './registry.ts';
export type { RegistryServer } from './server.ts';
export type { RegistryEndpoint } from './wire.ts';
