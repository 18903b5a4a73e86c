import { withFaultCodes, type FaultCodes } from '../classify/index.ts';
import type { TokenKind } from '../catalog/index.ts';
import type { Account } from './account.ts';

/** A REST API the checks call to see whether a token is accepted. */
export interface RestProbe {
  readonly method: 'GET' | 'POST';
  /** The path on the environment's REST base URL. */
  readonly path: string;
  /** A query string, without `?`. */
  readonly query?: string;
  /** A JSON body for a POST. */
  readonly body?: string;
}

/** A SOAP action the checks call with a token. */
export interface SoapProbe {
  readonly action: string;
  /** The XML of the body's element; by default an empty element named after the action (OTA namespace). */
  readonly body?: string;
}

/**
 * The calls a token-acceptance check makes. The interface document leaves which API accepts which token kind to each
 * API's reference ("Not every API accepts sessionless tokens"), so these are target config, with defaults that fit
 * the real service and the simulator.
 */
export interface Probes {
  /** A REST API the main account may call with a sessionless token, answering 2xx to this request. */
  readonly rest: RestProbe;
  /** A SOAP action that accepts sessionless tokens and answers this request without a fault. */
  readonly soapSessionless: SoapProbe;
  /** A request to send with a session token: the Refresh Session API ("a simple ping"). */
  readonly soapSession: SoapProbe;
}

export const DEFAULT_PROBES: Probes = {
  rest: { method: 'GET', path: '/v1/lists/supported/shop/themes' },
  soapSessionless: { action: 'BargainFinderMaxRQ' },
  soapSession: { action: 'OTA_PingRQ' },
};

/** An API named in a declaration: `"/v1/offers/shop"` or `"POST /v2.0.0/GetHotelRateInfoRQ"` (REST), or a SOAP action. */
export type ApiRef = string;

/** What a target declares about its APIs and accounts, where the document leaves it to each API's reference. */
export interface Declarations {
  /** The token kinds each API accepts (ACCESS-01): REST APIs and SOAP actions. */
  readonly tokenKinds: Readonly<Record<ApiRef, readonly TokenKind[]>>;
  /** An account of another agency, and agency-specific APIs the main agency may call and it may not (ACCESS-02). */
  readonly otherAgency?: { readonly account: Account; readonly agencyApis: readonly ApiRef[] };
  /** Developer-portal test credentials, public REST APIs they reach and others they do not (ACCESS-03). */
  readonly portal?: { readonly account: Account; readonly publicApis: readonly ApiRef[]; readonly otherApis: readonly ApiRef[] };
  /** An account without a contractual amendment, and the APIs that need it (ACCESS-04). */
  readonly noAmendment?: { readonly account: Account; readonly amendmentApis: readonly ApiRef[] };
  /** An account valid in CERT only (ENV-03). */
  readonly certOnly?: Account;
}

/** What a target knows beyond its addresses and accounts. */
export interface TargetKnowledge {
  readonly probes: Probes;
  /** The probes the target declared (its config, or the simulator's own): the others are defaults, tried first among candidates. */
  readonly declaredProbes: readonly (keyof Probes)[];
  readonly faultCodes: FaultCodes;
  readonly declared: Declarations;
}

export function knowledge(input: {
  probes?: Partial<Probes> | undefined;
  faultCodes?: Partial<Record<keyof FaultCodes, readonly string[]>> | undefined;
  declared?: Partial<Declarations> | undefined;
} = {}): TargetKnowledge {
  return {
    probes: { ...DEFAULT_PROBES, ...input.probes },
    declaredProbes: (Object.keys(input.probes ?? {}) as (keyof Probes)[]).filter((k) => input.probes?.[k] !== undefined),
    faultCodes: withFaultCodes(input.faultCodes),
    declared: { tokenKinds: {}, ...input.declared },
  };
}

/** Splits an API reference into a REST call or a SOAP action. */
export function parseApiRef(ref: ApiRef): { readonly kind: 'rest'; readonly method: 'GET' | 'POST'; readonly path: string; readonly query?: string } | { readonly kind: 'soap'; readonly action: string } {
  const m = /^(?:(GET|POST)\s+)?(\/\S*)$/.exec(ref.trim());
  if (!m) return { kind: 'soap', action: ref.trim() };
  const [path, query] = (m[2] as string).split('?', 2) as [string, string | undefined];
  return { kind: 'rest', method: (m[1] as 'GET' | 'POST' | undefined) ?? 'GET', path, ...(query && { query }) };
}
