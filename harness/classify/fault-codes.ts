import { soapFaults } from '../catalog/index.ts';

/**
 * The SOAP fault codes that tell what a fault means, by the local part of the faultcode (the prefix is free:
 * `soap-env:`, `SOAP-ENV:` …). The interface document names one (`Client.InvalidSecurityToken`); the others are what
 * the real service is publicly seen to send (PUBLIC-FACTS.md). A target config adds the codes of its own service
 * (`faultCodes` in the target config): a fault whose code is in none of these lists means nothing more than "a fault".
 */
export interface FaultCodes {
  /** The token (or the session) was refused: invalid, expired, closed, from another environment. */
  readonly invalidToken: readonly string[];
  /** The UsernameToken credentials were refused. */
  readonly authentication: readonly string[];
  /** The caller (PCC, EPR, token kind) may not use this API. */
  readonly notAuthorized: readonly string[];
  /** The caller's session pool is full. */
  readonly poolFull: readonly string[];
  /** The service does not offer the requested action. */
  readonly unknownAction: readonly string[];
  /** The service is busy or the session is in use: try again later. */
  readonly busy: readonly string[];
}

/** What the document and the public facts name. `notAuthorized` is the simulator's own code (nothing public). */
export const DEFAULT_FAULT_CODES: FaultCodes = {
  invalidToken: [soapFaults.invalidSecurityToken.faultcode],
  authentication: [
    soapFaults.authenticationFailed.faultcode,
    soapFaults.userNameNodeNotFound.faultcode,
    soapFaults.passwordNodeNotFound.faultcode,
    soapFaults.organizationNodeNotFound.faultcode,
  ],
  notAuthorized: [soapFaults.notAuthorized.faultcode],
  poolFull: [soapFaults.reachedTALimit.faultcode],
  unknownAction: [],
  busy: ['Server.SystemFailure'],
};

/** StackTrace markers the public service puts in `detail` (`errors.session.USG_…`), for faults with unknown codes. */
export const STACK_MARKERS: readonly { readonly marker: RegExp; readonly kind: keyof FaultCodes }[] = [
  { marker: /USG_INVALID_SECURITY_TOKEN/, kind: 'invalidToken' },
  { marker: /USG_AUTHENTICATION_FAILED/, kind: 'authentication' },
  { marker: /USG_RESOURCE_UNAVAILABLE/, kind: 'poolFull' },
  { marker: /USG_SERVICE_IS_BUSY|USG_INVALID_SESSION/, kind: 'busy' },
];

/** Merges a target's own codes into the defaults. */
export function withFaultCodes(extra: Partial<Record<keyof FaultCodes, readonly string[]>> | undefined): FaultCodes {
  if (!extra) return DEFAULT_FAULT_CODES;
  const out = { ...DEFAULT_FAULT_CODES } as Record<keyof FaultCodes, readonly string[]>;
  for (const key of Object.keys(out) as (keyof FaultCodes)[]) out[key] = [...new Set([...out[key], ...(extra[key] ?? [])])];
  return out;
}
