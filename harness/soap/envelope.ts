import type { SoapBody } from './bodies.ts';
import { NS, PREFIX } from './namespaces.ts';
import { element, writeXml, type ElementSpec, type WriteOptions } from './xml-builder.ts';

/** The `eb:version` values seen in the wild. */
export type EbVersion = '1.0' | '2.0.0';

/** How the header is written; both shapes are seen in the wild and carry the same ebXML namespace. */
export type HeaderShape = 'prefixed' | 'default-namespace';

export interface MessageHeaderElements {
  readonly from: string;
  readonly to: string;
  readonly cpaId: string;
  readonly conversationId: string;
  readonly service: string;
  readonly serviceType: string | undefined;
  readonly partyIdType: string | undefined;
  readonly partyIdTypeQualified: boolean;
  readonly action: string;
  readonly messageId: string;
  readonly timestamp: string;
  readonly refToMessageId: string | undefined;
  readonly timeToLive: string | undefined;
  readonly version: EbVersion;
  readonly shape: HeaderShape;
}

/** `eb:MessageHeader` (or the unprefixed default-namespace form), children in schema order. */
export function messageHeaderElement(h: MessageHeaderElements): ElementSpec {
  const prefixed = h.shape === 'prefixed';
  const q = (local: string): string => (prefixed ? `${PREFIX.eb}:${local}` : local);
  const typeAttribute = (value: string | undefined, qualified: boolean): Record<string, string | undefined> =>
    ({ [qualified && prefixed ? `${PREFIX.eb}:type` : 'type']: value });
  const party = (name: string, id: string): ElementSpec =>
    element(q(name), {}, element(q('PartyId'), typeAttribute(h.partyIdType, h.partyIdTypeQualified), id));
  return element(
    q('MessageHeader'),
    prefixed
      ? { [`xmlns:${PREFIX.eb}`]: NS.eb, [`${PREFIX.eb}:version`]: h.version, [`${PREFIX.soapEnv}:mustUnderstand`]: '1' }
      : { xmlns: NS.eb, version: h.version, [`${PREFIX.soapEnv}:mustUnderstand`]: '1' },
    party('From', h.from),
    party('To', h.to),
    element(q('CPAId'), {}, h.cpaId),
    element(q('ConversationId'), {}, h.conversationId),
    element(q('Service'), typeAttribute(h.serviceType, true), h.service),
    element(q('Action'), {}, h.action),
    element(
      q('MessageData'),
      {},
      element(q('MessageId'), {}, h.messageId),
      element(q('Timestamp'), {}, h.timestamp),
      h.refToMessageId === undefined ? undefined : element(q('RefToMessageId'), {}, h.refToMessageId),
      h.timeToLive === undefined ? undefined : element(q('TimeToLive'), {}, h.timeToLive),
    ),
  );
}

/** `<wsse:Security xmlns:wsse="…">` around `content` (nothing: `<wsse:Security …/>`). */
export function securityElement(...content: readonly ElementSpec[]): ElementSpec {
  return element(`${PREFIX.wsse}:Security`, { [`xmlns:${PREFIX.wsse}`]: NS.wsse }, ...content);
}

/**
 * The token carrier with the attributes in the order the service writes them (PUBLIC-FACTS.md: one published client
 * finds the token by the exact substring `<wsse:BinarySecurityToken valueType="String" EncodingType="wsse:Base64Binary">`).
 */
export function binarySecurityTokenElement(token: string): ElementSpec {
  return element(`${PREFIX.wsse}:BinarySecurityToken`, { valueType: 'String', EncodingType: 'wsse:Base64Binary' }, token);
}

/** The whole envelope: `soap-env:Envelope` › `soap-env:Header` (the given blocks) and `soap-env:Body`. */
const RAW_MARK = '\u0000raw-body\u0000'.replace(/\u0000/g, '@@');

export function writeEnvelope(headerBlocks: readonly ElementSpec[], body: SoapBody, options: WriteOptions = {}): string {
  const xml = writeXml(
    element(
      `${PREFIX.soapEnv}:Envelope`,
      { [`xmlns:${PREFIX.soapEnv}`]: NS.soapEnv },
      element(`${PREFIX.soapEnv}:Header`, {}, ...headerBlocks),
      element(`${PREFIX.soapEnv}:Body`, {}, ...body.elements, ...(body.raw !== undefined ? [RAW_MARK] : [])),
    ),
    options,
  );
  return body.raw !== undefined ? xml.replace(RAW_MARK, () => body.raw as string) : xml;
}
