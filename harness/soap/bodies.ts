import type { SoapErrorCode } from './errors.ts';
import { soapFaults } from '../catalog/index.ts';
import { NS, PREFIX } from './namespaces.ts';
import { element, type ElementSpec } from './xml-builder.ts';
import { parseXmlTree } from './xml-tree.ts';

/** The content of `soap-env:Body`: one or more elements, made by the body builders below or by {@link element}. */
export interface SoapBody {
  readonly kind: 'soap-body';
  readonly elements: readonly ElementSpec[];
  /** XML written into the body as it is (a business payload from a target config), after `elements`. */
  readonly raw?: string;
}

/**
 * A body holding the XML of a business payload as it is (from a target config: the payloads are outside the
 * interface document). Throws `RawBodyError` when the text is not one well-formed element.
 */
export function rawBody(xml: string): SoapBody {
  const tree = parseXmlTree(xml.trim());
  if (!tree.ok) throw new RawBodyError(`the body XML is not well-formed (${tree.code}: ${tree.message})`);
  return { kind: 'soap-body', elements: [], raw: xml.trim() };
}

export class RawBodyError extends Error {
  readonly code = 'raw-body-invalid' satisfies SoapErrorCode;
  constructor(message: string) {
    super(message);
    this.name = 'RawBodyError';
  }
}

/** The body of a request to `action`: the harness's own for the actions it knows, else an empty element named after it. */
export function actionBody(action: string): SoapBody {
  switch (action) {
    case 'OTA_PingRQ': return otaPingRQBody();
    case 'OTA_HotelAvailLLSRQ': return hotelAvailLLSRQBody();
    case 'BargainFinderMaxRQ': return bargainFinderMaxRQBody();
    default: return business(action, {}, '1.0.0');
  }
}

/** A body of arbitrary elements (for business payloads and deliberately wrong bodies). */
export function customBody(...elements: readonly ElementSpec[]): SoapBody {
  return { kind: 'soap-body', elements };
}

/** The body manifest of token-creating requests: one `eb:Reference`, `xlink:href="cid:rootelement"` by default. */
export function manifest(href = 'cid:rootelement'): ElementSpec {
  return element(
    `${PREFIX.eb}:Manifest`,
    { [`xmlns:${PREFIX.eb}`]: NS.eb, [`${PREFIX.soapEnv}:mustUnderstand`]: '1', [`${PREFIX.eb}:version`]: '1.0' },
    element(`${PREFIX.eb}:Reference`, { [`xmlns:${PREFIX.xlink}`]: NS.xlink, [`${PREFIX.xlink}:href`]: href, [`${PREFIX.xlink}:type`]: 'simple' }),
  );
}

function withManifest(include: boolean, payload: ElementSpec): SoapBody {
  return customBody(...(include ? [manifest()] : []), payload);
}

// ---- request bodies ---------------------------------------------------------------------------------------------

export interface TokenCreateRQOptions {
  readonly version?: string;
  /** Put an `eb:Manifest` before the payload, as SOAP-03 requires (default true). */
  readonly manifest?: boolean;
}

/** `<TokenCreateRQ Version="1.0.0" xmlns="http://webservices.sabre.com"/>`, after the manifest. */
export function tokenCreateRQBody(options: TokenCreateRQOptions = {}): SoapBody {
  return withManifest(options.manifest ?? true, element('TokenCreateRQ', { xmlns: NS.sws, Version: options.version ?? '1.0.0' }));
}

export interface SessionCreateRQOptions {
  readonly version?: string;
  readonly pseudoCityCode?: string;
  readonly returnContextID?: boolean;
  /** Put an `eb:Manifest` before the payload, as SOAP-03 requires (default true). */
  readonly manifest?: boolean;
}

/** `<SessionCreateRQ Version="1.0.0" xmlns="…OTA/2002/11">` with optional `returnContextID` and POS/Source. */
export function sessionCreateRQBody(options: SessionCreateRQOptions = {}): SoapBody {
  const payload = element(
    'SessionCreateRQ',
    {
      xmlns: NS.ota,
      Version: options.version ?? '1.0.0',
      returnContextID: options.returnContextID === undefined ? undefined : String(options.returnContextID),
    },
    options.pseudoCityCode === undefined ? undefined : pos(options.pseudoCityCode),
  );
  return withManifest(options.manifest ?? true, payload);
}

export interface SessionCloseRQOptions {
  readonly pseudoCityCode: string;
  /** `xs:dateTime`, e.g. `2018-02-18T17:00:00Z`. */
  readonly timeStamp: string;
  readonly version?: string;
}

/** `<SessionCloseRQ TimeStamp="…" Version="1.0.0"><POS><Source PseudoCityCode="…"/></POS></SessionCloseRQ>` (SESS-05). */
export function sessionCloseRQBody(options: SessionCloseRQOptions): SoapBody {
  return customBody(
    element('SessionCloseRQ', { xmlns: NS.ota, TimeStamp: options.timeStamp, Version: options.version ?? '1.0.0' }, pos(options.pseudoCityCode)),
  );
}

export interface OtaPingRQOptions {
  readonly echoData?: string;
  readonly timeStamp?: string;
  readonly version?: string;
}

/** The keep-alive ping: `<OTA_PingRQ Version="1.0.0"><EchoData>…</EchoData></OTA_PingRQ>`. */
export function otaPingRQBody(options: OtaPingRQOptions = {}): SoapBody {
  return customBody(
    element(
      'OTA_PingRQ',
      { xmlns: NS.ota, Version: options.version ?? '1.0.0', TimeStamp: options.timeStamp },
      element('EchoData', {}, options.echoData ?? 'Are you there?'),
    ),
  );
}

export interface BusinessBodyOptions {
  readonly version?: string;
  /** Payload elements, written unchanged (the payloads are outside the interface document). */
  readonly content?: readonly ElementSpec[];
}

function business(name: string, options: BusinessBodyOptions, defaultVersion: string): SoapBody {
  return customBody(element(name, { xmlns: NS.ota, Version: options.version ?? defaultVersion }, ...(options.content ?? [])));
}

/** A minimal `OTA_HotelAvailLLSRQ` (a business action that needs a session token). */
export function hotelAvailLLSRQBody(options: BusinessBodyOptions = {}): SoapBody {
  return business('OTA_HotelAvailLLSRQ', options, '2.3.0');
}

/** A minimal `BargainFinderMaxRQ` (a business action that accepts sessionless tokens too). */
export function bargainFinderMaxRQBody(options: BusinessBodyOptions = {}): SoapBody {
  return business('BargainFinderMaxRQ', options, '4.3.0');
}

function pos(pseudoCityCode: string): ElementSpec {
  return element('POS', {}, element('Source', { PseudoCityCode: pseudoCityCode }));
}

// ---- response bodies --------------------------------------------------------------------------------------------

/** `<sws:TokenCreateRS Version="1.0.0" xmlns:sws="http://webservices.sabre.com"><sws:Success/></sws:TokenCreateRS>`. */
export function tokenCreateRSBody(): SoapBody {
  return customBody(element(`${PREFIX.sws}:TokenCreateRS`, { Version: '1.0.0', [`xmlns:${PREFIX.sws}`]: NS.sws }, element(`${PREFIX.sws}:Success`)));
}

/** `<SessionCreateRS xmlns="…" version="1" status="Approved"><ConversationId>…</ConversationId></SessionCreateRS>`. */
export function sessionCreateRSBody(options: { readonly conversationId?: string } = {}): SoapBody {
  return customBody(
    element(
      'SessionCreateRS',
      { xmlns: NS.ota, version: '1', status: 'Approved' },
      options.conversationId === undefined ? undefined : element('ConversationId', {}, options.conversationId),
    ),
  );
}

/** `<SessionCloseRS xmlns="…" version="1" status="Approved"/>`. */
export function sessionCloseRSBody(): SoapBody {
  return customBody(element('SessionCloseRS', { xmlns: NS.ota, version: '1', status: 'Approved' }));
}

/** `<OTA_PingRS Version="1.0.0"><Success/><EchoData>…</EchoData></OTA_PingRS>`. */
export function otaPingRSBody(options: { readonly echoData?: string; readonly timeStamp?: string } = {}): SoapBody {
  return customBody(
    element(
      'OTA_PingRS',
      { xmlns: NS.ota, Version: '1.0.0', TimeStamp: options.timeStamp },
      element('Success'),
      options.echoData === undefined ? undefined : element('EchoData', {}, options.echoData),
    ),
  );
}

/** A minimal `OTA_HotelAvailLLSRS`. */
export function hotelAvailLLSRSBody(options: BusinessBodyOptions = {}): SoapBody {
  return business('OTA_HotelAvailLLSRS', options, '2.3.0');
}

/** A minimal `BargainFinderMaxRS`. */
export function bargainFinderMaxRSBody(options: BusinessBodyOptions = {}): SoapBody {
  return business('BargainFinderMaxRS', options, '4.3.0');
}

export interface FaultFields {
  /** Without prefix, e.g. `Client.InvalidSecurityToken`; written as `soap-env:Client.InvalidSecurityToken`. */
  readonly faultcode: string;
  readonly faultstring: string;
  /** The text of `detail/StackTrace`; no `detail` when undefined. */
  readonly stackTrace?: string;
}

/** A `soap-env:Fault` body: faultcode (namespace-prefixed), faultstring, detail/StackTrace. */
export function faultBody(fault: FaultFields): SoapBody {
  return customBody(
    element(
      `${PREFIX.soapEnv}:Fault`,
      {},
      element('faultcode', {}, `${PREFIX.soapEnv}:${fault.faultcode}`),
      element('faultstring', {}, fault.faultstring),
      fault.stackTrace === undefined ? undefined : element('detail', {}, element('StackTrace', {}, fault.stackTrace)),
    ),
  );
}

export type SpecFaultKey = keyof typeof soapFaults;

/**
 * The fault of the error catalog (`harness/catalog/errors.ts`). For `invalidSecurityToken` the bad token is quoted at
 * the end of the faultstring, as the interface document requires (ERR-04).
 */
export function specFaultBody(key: SpecFaultKey, token?: string): SoapBody {
  const fault = soapFaults[key];
  const faultstring = key === 'invalidSecurityToken' ? `${fault.faultstring}${token ?? ''}` : fault.faultstring;
  return faultBody({ faultcode: fault.faultcode, faultstring, stackTrace: fault.stackTrace });
}
