import { DEFAULT_SOAP_DOMAIN } from '../catalog/index.ts';
import type { SoapBody } from './bodies.ts';
import {
  binarySecurityTokenElement, messageHeaderElement, securityElement, writeEnvelope, type EbVersion, type HeaderShape,
} from './envelope.ts';
import { PREFIX } from './namespaces.ts';
import { element, type ElementSpec, type WriteOptions } from './xml-builder.ts';

/**
 * The `eb:MessageHeader` of a request: every element the interface document lists ("All SOAP calls carry an
 * eb:MessageHeader (containing From/PartyId, To/PartyId, CPAId, ConversationId, Service, Action, MessageData with
 * MessageId, Timestamp, TimeToLive)").
 */
export interface RequestHeader {
  readonly from: string;
  readonly to: string;
  /** The caller's PCC/iPCC (SOAP-05). */
  readonly cpaId: string;
  /** One per workflow (SOAP-05). */
  readonly conversationId: string;
  /** Usually the action code, with `eb:type="OTA"`. */
  readonly service: string;
  readonly action: string;
  readonly messageId: string;
  /** `xs:dateTime`. */
  readonly timestamp: string;
  /** `xs:dateTime`. */
  readonly timeToLive: string;
  readonly refToMessageId?: string;
  readonly version: EbVersion;
}

/** The credentials of a token-creating request (SOAP-03): Username is the EPR, Organization the PCC/iPCC. */
export interface UsernameTokenFields {
  readonly username: string;
  readonly password: string;
  readonly organization: string;
  /** The SOAP domain, usually `DEFAULT` (not the REST domain `AA`). */
  readonly domain: string;
}

/**
 * What goes in `wsse:Security`: a UsernameToken (TokenCreateRQ, SessionCreateRQ), the token (every later call), an
 * empty `<wsse:Security/>`, or no Security header at all (the last two for deliberately wrong requests).
 */
export type RequestSecurity =
  | ({ readonly kind: 'usernameToken' } & UsernameTokenFields)
  | { readonly kind: 'binarySecurityToken'; readonly token: string }
  | { readonly kind: 'empty' }
  | { readonly kind: 'none' };

/** How a request is written. Every shape here validates against `fixtures/xsd/request.xsd`. */
export interface RequestStyle {
  /** `eb:`-prefixed elements with `eb:version` (default), or unprefixed in the default namespace with `version`. */
  readonly headerShape?: HeaderShape;
  /** `type` of both PartyIds (default `urn:x12.org:IO5:01`); `null` leaves it out. */
  readonly partyIdType?: string | null;
  /** `eb:type` of Service (default `OTA`); `null` leaves it out. */
  readonly serviceType?: string | null;
  /** The token-carrier attributes `valueType="String" EncodingType="wsse:Base64Binary"` (default true). */
  readonly tokenAttributes?: boolean;
}

export interface SoapRequest {
  readonly header: RequestHeader;
  readonly security: RequestSecurity;
  readonly body: SoapBody;
  readonly style?: RequestStyle;
}

/** A SOAP request envelope, built with fast-xml-parser's XMLBuilder. */
export function buildRequest(request: SoapRequest, options: WriteOptions = {}): string {
  const { header, style = {} } = request;
  const blocks: ElementSpec[] = [
    messageHeaderElement({
      ...header,
      refToMessageId: header.refToMessageId,
      serviceType: style.serviceType === null ? undefined : (style.serviceType ?? 'OTA'),
      partyIdType: style.partyIdType === null ? undefined : (style.partyIdType ?? 'urn:x12.org:IO5:01'),
      partyIdTypeQualified: false,
      shape: style.headerShape ?? 'prefixed',
    }),
  ];
  const security = requestSecurityElement(request.security, style.tokenAttributes ?? true);
  if (security) blocks.push(security);
  return writeEnvelope(blocks, request.body, options);
}

function requestSecurityElement(security: RequestSecurity, tokenAttributes: boolean): ElementSpec | undefined {
  switch (security.kind) {
    case 'usernameToken':
      return securityElement(
        element(
          `${PREFIX.wsse}:UsernameToken`,
          {},
          element(`${PREFIX.wsse}:Username`, {}, security.username),
          element(`${PREFIX.wsse}:Password`, {}, security.password),
          // Unqualified, as the service expects them (PUBLIC-FACTS.md "SOAP transport").
          element('Organization', {}, security.organization),
          element('Domain', {}, security.domain),
        ),
      );
    case 'binarySecurityToken':
      return securityElement(
        tokenAttributes ? binarySecurityTokenElement(security.token) : element(`${PREFIX.wsse}:BinarySecurityToken`, {}, security.token),
      );
    case 'empty':
      return securityElement();
    case 'none':
      return undefined;
  }
}

export interface RequestHeaderInput {
  readonly action: string;
  readonly cpaId: string;
  readonly conversationId: string;
  /** The moment the request is sent: Timestamp, and TimeToLive `timeToLiveSeconds` later. */
  readonly now: Date;
  readonly messageId: string;
  readonly from?: string;
  readonly to?: string;
  readonly service?: string;
  readonly version?: EbVersion;
  readonly timeToLiveSeconds?: number;
  readonly refToMessageId?: string;
}

/**
 * A complete {@link RequestHeader} with the usual values: From `agency`, To `webservices.sabre.com`, Service = the
 * action, version `1.0`, TimeToLive one hour after Timestamp, both in UTC with a `Z`.
 */
export function makeRequestHeader(input: RequestHeaderInput): RequestHeader {
  const ttl = new Date(input.now.getTime() + (input.timeToLiveSeconds ?? 3600) * 1000);
  return {
    from: input.from ?? 'agency',
    to: input.to ?? 'webservices.sabre.com',
    cpaId: input.cpaId,
    conversationId: input.conversationId,
    service: input.service ?? input.action,
    action: input.action,
    messageId: input.messageId,
    timestamp: formatEbTimestamp(input.now, { zone: true }),
    timeToLive: formatEbTimestamp(ttl, { zone: true }),
    ...(input.refToMessageId === undefined ? {} : { refToMessageId: input.refToMessageId }),
    version: input.version ?? '1.0',
  };
}

/** A UsernameToken security block with the SOAP default domain (`DEFAULT`) unless one is given. */
export function usernameToken(fields: Omit<UsernameTokenFields, 'domain'> & { readonly domain?: string }): RequestSecurity {
  return { kind: 'usernameToken', ...fields, domain: fields.domain ?? DEFAULT_SOAP_DOMAIN };
}

/**
 * `xs:dateTime` in UTC, whole seconds: `2018-02-18T16:42:18Z`, or without the zone (`2018-02-18T16:42:18`) as the
 * real service writes response timestamps.
 */
export function formatEbTimestamp(date: Date, options: { readonly zone: boolean }): string {
  const text = date.toISOString().slice(0, 19);
  return options.zone ? `${text}Z` : text;
}
