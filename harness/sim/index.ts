/**
 * The simulated service: a pure core with an injected clock, and two thin adapters over it — MSW handlers
 * (in-process) and a loopback HTTP(S) server (for everything that talks real HTTP).
 */
export { allAmendments, simAccount } from './accounts.ts';
export { DriftingClock, ManualClock } from './clock.ts';
export { CONTROL_PREFIX, handleControl } from './control.ts';
export { SimCore, SOAP_PATH } from './core.ts';
export { defaultAccounts } from './default-accounts.ts';
export { defects, defectsBreaking, isDefectId, parseDefects, UnknownDefectError } from './defects.ts';
export { EventLog } from './events.ts';
export { pairsWithoutRoute, routeTakers } from './route-takers.ts';
export { createSimHandlers, inProcessUrls } from './msw.ts';
export { startSimServer } from './server.ts';
export { handleSoap } from './soap.ts';
export { tokenState } from './tokens.ts';

export type { AccountsByEnvironment, SimAccount, SimAccountInput } from './accounts.ts';
export type { AdvanceableClock, Clock } from './clock.ts';
export type { ControlOptions } from './control.ts';
export type { SimOptions } from './core.ts';
export type { DefaultAccounts } from './default-accounts.ts';
export type { Defect, DefectId } from './defects.ts';
export type { RouteTaker } from './route-takers.ts';
export type { SimEvent, SimOutcome } from './events.ts';
export type { SimRequest, SimResponse } from './http.ts';
export type { GatewayAnswer, SimEndpoints, SimServer, SimServerOptions } from './server.ts';
export type { IssuedToken, TokenState } from './tokens.ts';
