import type { SoapBody } from './bodies.ts';
import {
  binarySecurityTokenElement, messageHeaderElement, securityElement, writeEnvelope, type EbVersion,
} from './envelope.ts';
import { formatEbTimestamp } from './build-request.ts';
import type { ParsedMessageHeader } from './parse-envelope.ts';
import type { ElementSpec, WriteOptions } from './xml-builder.ts';

/** The request being answered, as far as the response echoes it. */
export interface ReplyTo {
  /** The request's From/PartyId: becomes the response's To. */
  readonly from: string;
  /** The request's To/PartyId: becomes the response's From. */
  readonly to: string;
  readonly cpaId: string;
  readonly conversationId: string;
  /** The request's MessageId: becomes RefToMessageId (left out when undefined). */
  readonly messageId: string | undefined;
  readonly version: EbVersion;
}

export interface ResponseHeader {
  readonly inReplyTo: ReplyTo;
  /** `TokenCreateRS`, `SessionCreateRS`, `SessionCloseRS`, …, or `ErrorRS` for a fault. */
  readonly action: string;
  /** The service writes a numeric MessageId. */
  readonly messageId: string;
  /** A Date is written in UTC without a zone (`2018-02-18T16:42:18`), as the service does. */
  readonly timestamp: Date | string;
  /** Default `Session`. */
  readonly service?: string;
  /** Default `sabreXML`. */
  readonly serviceType?: string;
  readonly timeToLive?: string;
}

/** The token in a BinarySecurityToken, an empty `<wsse:Security/>` (Client.AuthenticationFailed), or none. */
export type ResponseSecurity =
  | { readonly kind: 'binarySecurityToken'; readonly token: string }
  | { readonly kind: 'empty' }
  | { readonly kind: 'none' };

export interface SoapResponse {
  readonly header: ResponseHeader;
  readonly security: ResponseSecurity;
  readonly body: SoapBody;
}

/**
 * A response envelope as the real service writes it (PUBLIC-FACTS.md "SOAP responses"): From and To swapped,
 * PartyId `eb:type="URI"`, CPAId, ConversationId and `eb:version` echoed, `soap-env:mustUnderstand="1"`,
 * `<eb:Service eb:type="sabreXML">Session</eb:Service>`, RefToMessageId = the request's MessageId, and the token in
 * `<wsse:BinarySecurityToken valueType="String" EncodingType="wsse:Base64Binary">`.
 */
export function buildResponse(response: SoapResponse, options: WriteOptions = {}): string {
  const { header } = response;
  const blocks: ElementSpec[] = [
    messageHeaderElement({
      from: header.inReplyTo.to,
      to: header.inReplyTo.from,
      cpaId: header.inReplyTo.cpaId,
      conversationId: header.inReplyTo.conversationId,
      service: header.service ?? 'Session',
      serviceType: header.serviceType ?? 'sabreXML',
      partyIdType: 'URI',
      partyIdTypeQualified: true,
      action: header.action,
      messageId: header.messageId,
      timestamp: typeof header.timestamp === 'string' ? header.timestamp : formatEbTimestamp(header.timestamp, { zone: false }),
      refToMessageId: header.inReplyTo.messageId,
      timeToLive: header.timeToLive,
      version: header.inReplyTo.version,
      shape: 'prefixed',
    }),
  ];
  switch (response.security.kind) {
    case 'binarySecurityToken':
      blocks.push(securityElement(binarySecurityTokenElement(response.security.token)));
      break;
    case 'empty':
      blocks.push(securityElement());
      break;
    case 'none':
      break;
  }
  return writeEnvelope(blocks, response.body, options);
}

/**
 * What a response echoes of a parsed request. The real service is lenient: where the request lacks a field, the
 * value comes from `fallback` (the simulator decides what it is); `eb:version` defaults to `1.0`.
 */
export function replyToOf(header: ParsedMessageHeader | undefined, fallback: Omit<ReplyTo, 'version' | 'messageId'>): ReplyTo {
  const version = header?.version === '2.0.0' ? '2.0.0' : '1.0';
  return {
    from: header?.from[0]?.value || fallback.from,
    to: header?.to[0]?.value || fallback.to,
    cpaId: header?.cpaId || fallback.cpaId,
    conversationId: header?.conversationId || fallback.conversationId,
    messageId: header?.messageData?.messageId || undefined,
    version,
  };
}
