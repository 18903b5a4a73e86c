import { DEFAULT_MAX_ENVELOPE_BYTES, screenInput, type ScreenCode } from './hostile-input.ts';
import { NS } from './namespaces.ts';
import { attributeValue, childElement, clarkName, parseXmlTree, type TreeErrorCode, type XmlElement } from './xml-tree.ts';

export interface ParsedPartyId {
  readonly value: string;
  /** `eb:type`, or the unqualified `type`. */
  readonly type: string | undefined;
}

export interface ParsedMessageData {
  readonly messageId: string | undefined;
  readonly timestamp: string | undefined;
  readonly refToMessageId: string | undefined;
  readonly timeToLive: string | undefined;
}

/**
 * `eb:MessageHeader` as found. The service is lenient (PUBLIC-FACTS.md), so every field may be missing: the caller
 * decides. Values are trimmed (they are `xs:token` in the schemas).
 */
export interface ParsedMessageHeader {
  /** `eb:`-prefixed (any prefix bound to the ebXML namespace), or unprefixed under a default xmlns. */
  readonly shape: 'prefixed' | 'default-namespace';
  /** `eb:version`, or the unqualified `version` of the default-namespace shape. */
  readonly version: string | undefined;
  readonly mustUnderstand: string | undefined;
  readonly from: readonly ParsedPartyId[];
  readonly to: readonly ParsedPartyId[];
  readonly cpaId: string | undefined;
  readonly conversationId: string | undefined;
  readonly service: { readonly value: string; readonly type: string | undefined } | undefined;
  readonly action: string | undefined;
  readonly messageData: ParsedMessageData | undefined;
}

export interface ParsedUsernameToken {
  readonly username: string | undefined;
  /** Exactly as sent (not trimmed). */
  readonly password: string | undefined;
  /** Only the unqualified `Organization` counts (a `wsse:Organization` is not it). */
  readonly organization: string | undefined;
  readonly domain: string | undefined;
  /**
   * The children named Username, Password, Organization or Domain that are not the document's (in another namespace),
   * in Clark notation: what a message says in place of "lacks" (absent when there are none).
   */
  readonly misplaced?: readonly string[];
}

export interface ParsedBinarySecurityToken {
  readonly token: string;
  readonly valueType: string | undefined;
  readonly encodingType: string | undefined;
}

/**
 * What `wsse:Security` carries. `none` says whether the header was there at all (an empty `<wsse:Security/>` is
 * what the service sends with Client.AuthenticationFailed).
 */
export type ParsedSecurity =
  | ({ readonly kind: 'usernameToken' } & ParsedUsernameToken)
  | ({ readonly kind: 'binarySecurityToken' } & ParsedBinarySecurityToken)
  | { readonly kind: 'both'; readonly usernameToken: ParsedUsernameToken; readonly binarySecurityToken: ParsedBinarySecurityToken }
  | { readonly kind: 'none'; readonly securityHeader: boolean };

export interface ParsedManifest {
  /** `xlink:href` of every `eb:Reference` (the document asks for a single one). */
  readonly references: readonly (string | undefined)[];
}

export interface ParsedFault {
  /** The faultcode text as written, e.g. `soap-env:Client.InvalidSecurityToken`. */
  readonly faultcode: string;
  /** The namespace its prefix is bound to (undefined when unprefixed or unbound). */
  readonly faultcodeNamespace: string | undefined;
  /** The part after the prefix, e.g. `Client.InvalidSecurityToken`. */
  readonly faultcodeLocal: string;
  readonly faultstring: string | undefined;
  readonly faultactor: string | undefined;
  /**
   * The text of the first `StackTrace` in `detail`, by local name whatever its namespace (`<ns1:StackTrace>`) and at
   * any depth (`detail/Error/StackTrace`): the document names the element, not its namespace or place.
   */
  readonly stackTrace: string | undefined;
}

export interface ParsedBody {
  /** The payload: the first Body child that is not `eb:Manifest` (the Fault, for a fault). */
  readonly root: XmlElement | undefined;
  readonly manifest: ParsedManifest | undefined;
  /** Every Body child, in order. */
  readonly elements: readonly XmlElement[];
}

export interface ParsedEnvelope {
  /** The prefix the envelope was written with (`soap-env`, `SOAP-ENV`, … or undefined for a default xmlns). */
  readonly envelopePrefix: string | undefined;
  readonly messageHeader: ParsedMessageHeader | undefined;
  readonly security: ParsedSecurity;
  /**
   * The text of every wsse:BinarySecurityToken in every wsse:Security header block, in document order (`security`
   * reads the first block's first one): an answer may echo the request's token beside one it issues.
   */
  readonly binarySecurityTokens: readonly string[];
  /**
   * The text of every other element of the header named BinarySecurityToken, by local name at any depth and in any
   * namespace (a Security header in another namespace, the token outside it): where the token is not where the document
   * puts it (SOAP-04's to judge), but it is still the token the client meant to send.
   */
  readonly misplacedTokens: readonly string[];
  /** `eb:Action` (the service dispatches on it, not on SOAPAction). */
  readonly action: string | undefined;
  readonly body: ParsedBody;
  readonly fault: ParsedFault | undefined;
}

export type ParseErrorCode = ScreenCode | TreeErrorCode | 'not-an-envelope' | 'no-body';

export type ParseResult =
  | { readonly ok: true; readonly envelope: ParsedEnvelope }
  | { readonly ok: false; readonly code: ParseErrorCode; readonly message: string };

export interface ParseOptions {
  /** Bound on the input, in UTF-8 bytes (default 1 MiB). */
  readonly maxBytes?: number;
}

/**
 * Parses a SOAP envelope from text. Safe against hostile input: the size is bounded, any DOCTYPE or ENTITY
 * declaration is refused before parsing (no entity is ever expanded, nothing is ever read from disk or network), and
 * nesting is bounded. Namespace-aware: any prefix bound to the right namespace URI is accepted, and so is the
 * unprefixed default-namespace header shape.
 */
export function parseEnvelope(xml: string, options: ParseOptions = {}): ParseResult {
  const screened = screenInput(xml, options.maxBytes ?? DEFAULT_MAX_ENVELOPE_BYTES);
  if (screened) return { ok: false, ...screened };
  const tree = parseXmlTree(xml);
  if (!tree.ok) return tree;
  const { root } = tree;
  if (root.namespace !== NS.soapEnv || root.localName !== 'Envelope') {
    return { ok: false, code: 'not-an-envelope', message: `the root element is ${clarkName(root)}, not {${NS.soapEnv}}Envelope` };
  }
  const header = childElement(root, NS.soapEnv, 'Header');
  const bodyElement = childElement(root, NS.soapEnv, 'Body');
  if (!bodyElement) return { ok: false, code: 'no-body', message: `the envelope has no {${NS.soapEnv}}Body` };

  const messageHeader = parseMessageHeader(childElement(header, NS.eb, 'MessageHeader'));
  const body = parseBody(bodyElement);
  const faultElement = childElement(bodyElement, NS.soapEnv, 'Fault');
  return {
    ok: true,
    envelope: {
      envelopePrefix: root.prefix,
      messageHeader,
      security: parseSecurity(childElement(header, NS.wsse, 'Security')),
      binarySecurityTokens: (header?.children ?? [])
        .filter((c) => c.namespace === NS.wsse && c.localName === 'Security')
        .flatMap((s) => s.children.filter((c) => c.namespace === NS.wsse && c.localName === 'BinarySecurityToken'))
        .map((b) => b.text.trim())
        .filter((t) => t !== ''),
      misplacedTokens: header ? misplacedTokens(header) : [],
      action: messageHeader?.action,
      body,
      fault: faultElement ? parseFault(faultElement) : undefined,
    },
  };
}

function trimmed(element: XmlElement | undefined): string | undefined {
  return element === undefined ? undefined : element.text.trim();
}

function typed(element: XmlElement): { value: string; type: string | undefined } {
  return { value: element.text.trim(), type: attributeValue(element, 'type', NS.eb) ?? attributeValue(element, 'type') };
}

function parseMessageHeader(header: XmlElement | undefined): ParsedMessageHeader | undefined {
  if (!header) return undefined;
  const eb = (parent: XmlElement | undefined, local: string): XmlElement | undefined => childElement(parent, NS.eb, local);
  const parties = (name: string): ParsedPartyId[] =>
    (eb(header, name)?.children ?? []).filter((c) => c.namespace === NS.eb && c.localName === 'PartyId').map(typed);
  const service = eb(header, 'Service');
  const data = eb(header, 'MessageData');
  return {
    shape: header.prefix === undefined ? 'default-namespace' : 'prefixed',
    version: attributeValue(header, 'version', NS.eb) ?? attributeValue(header, 'version'),
    mustUnderstand: attributeValue(header, 'mustUnderstand', NS.soapEnv),
    from: parties('From'),
    to: parties('To'),
    cpaId: trimmed(eb(header, 'CPAId')),
    conversationId: trimmed(eb(header, 'ConversationId')),
    service: service ? typed(service) : undefined,
    action: trimmed(eb(header, 'Action')),
    messageData: data
      ? {
          messageId: trimmed(eb(data, 'MessageId')),
          timestamp: trimmed(eb(data, 'Timestamp')),
          refToMessageId: trimmed(eb(data, 'RefToMessageId')),
          timeToLive: trimmed(eb(data, 'TimeToLive')),
        }
      : undefined,
  };
}

/** The UsernameToken's children: Username and Password in the wsse namespace, Organization and Domain unqualified. */
const USERNAME_TOKEN_CHILDREN: Readonly<Record<string, string | undefined>> = { Username: NS.wsse, Password: NS.wsse, Organization: undefined, Domain: undefined };

function misplacedIn(usernameToken: XmlElement): { misplaced?: readonly string[] } {
  const misplaced = usernameToken.children
    .filter((c) => Object.hasOwn(USERNAME_TOKEN_CHILDREN, c.localName) && c.namespace !== USERNAME_TOKEN_CHILDREN[c.localName])
    .map((c) => clarkName(c));
  return misplaced.length > 0 ? { misplaced } : {};
}

/** The header's BinarySecurityToken elements (any namespace, any depth) but wsse:Security/wsse:BinarySecurityToken. */
function misplacedTokens(header: XmlElement): string[] {
  const out: string[] = [];
  const walk = (e: XmlElement, inSecurity: boolean): void => {
    for (const c of e.children) {
      if (c.localName === 'BinarySecurityToken' && !(inSecurity && c.namespace === NS.wsse)) {
        const text = c.text.trim();
        if (text !== '') out.push(text);
      }
      walk(c, e === header && c.namespace === NS.wsse && c.localName === 'Security');
    }
  };
  walk(header, false);
  return out;
}

function parseSecurity(security: XmlElement | undefined): ParsedSecurity {
  if (!security) return { kind: 'none', securityHeader: false };
  const usernameTokenElement = childElement(security, NS.wsse, 'UsernameToken');
  const bstElement = childElement(security, NS.wsse, 'BinarySecurityToken');
  const usernameToken: ParsedUsernameToken | undefined = usernameTokenElement && {
    username: trimmed(childElement(usernameTokenElement, NS.wsse, 'Username')),
    password: childElement(usernameTokenElement, NS.wsse, 'Password')?.text,
    organization: trimmed(childElement(usernameTokenElement, undefined, 'Organization')),
    domain: trimmed(childElement(usernameTokenElement, undefined, 'Domain')),
    ...misplacedIn(usernameTokenElement),
  };
  const binarySecurityToken: ParsedBinarySecurityToken | undefined = bstElement && {
    token: bstElement.text.trim(),
    valueType: attributeValue(bstElement, 'valueType') ?? attributeValue(bstElement, 'ValueType'),
    encodingType: attributeValue(bstElement, 'EncodingType'),
  };
  if (usernameToken && binarySecurityToken) return { kind: 'both', usernameToken, binarySecurityToken };
  if (usernameToken) return { kind: 'usernameToken', ...usernameToken };
  if (binarySecurityToken) return { kind: 'binarySecurityToken', ...binarySecurityToken };
  return { kind: 'none', securityHeader: true };
}

function parseBody(body: XmlElement): ParsedBody {
  const manifestElement = childElement(body, NS.eb, 'Manifest');
  return {
    root: body.children.find((c) => !(c.namespace === NS.eb && c.localName === 'Manifest')),
    manifest: manifestElement
      ? {
          references: manifestElement.children
            .filter((c) => c.namespace === NS.eb && c.localName === 'Reference')
            .map((c) => attributeValue(c, 'href', NS.xlink)),
        }
      : undefined,
    elements: body.children,
  };
}

function parseFault(fault: XmlElement): ParsedFault {
  const codeElement = childElement(fault, undefined, 'faultcode');
  const faultcode = codeElement?.text.trim() ?? '';
  const colon = faultcode.indexOf(':');
  const prefix = colon < 0 ? undefined : faultcode.slice(0, colon);
  return {
    faultcode,
    faultcodeNamespace: prefix === undefined ? undefined : codeElement?.inScope.get(prefix),
    faultcodeLocal: colon < 0 ? faultcode : faultcode.slice(colon + 1),
    faultstring: trimmed(childElement(fault, undefined, 'faultstring')),
    faultactor: trimmed(childElement(fault, undefined, 'faultactor')),
    stackTrace: trimmed(descendantByLocalName(childElement(fault, undefined, 'detail'), 'StackTrace')),
  };
}

/** The first element below `parent` (document order, depth first) with the local name `localName`, in any namespace. */
function descendantByLocalName(parent: XmlElement | undefined, localName: string): XmlElement | undefined {
  for (const child of parent?.children ?? []) {
    if (child.localName === localName) return child;
    const below = descendantByLocalName(child, localName);
    if (below) return below;
  }
  return undefined;
}

/**
 * The elements of eb:MessageHeader the interface document lists for every request that `header` lacks (SOAP-01), by
 * their path under the header; `['eb:MessageHeader']` when there is none.
 */
export function missingHeaderElements(header: ParsedMessageHeader | undefined): string[] {
  if (!header) return ['eb:MessageHeader'];
  return [
    !header.from[0]?.value && 'From/PartyId',
    !header.to[0]?.value && 'To/PartyId',
    !header.cpaId && 'CPAId',
    !header.conversationId && 'ConversationId',
    !header.service && 'Service',
    !header.action && 'Action',
    !header.messageData?.messageId && 'MessageData/MessageId',
    !header.messageData?.timestamp && 'MessageData/Timestamp',
    !header.messageData?.timeToLive && 'MessageData/TimeToLive',
  ].filter((m): m is string => typeof m === 'string');
}
