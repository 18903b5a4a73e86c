import {
  buildRequest, childElement, makeRequestHeader, NS, otaPingRQBody, sessionCloseRQBody, sessionCreateRQBody, tokenCreateRQBody, usernameToken,
  type RequestSecurity, type SoapBody, type Verdict, type XmlElement,
} from '../soap/index.ts';
import { parseXmlTree } from '../soap/xml-tree.ts';
import { writeXmlTree } from '../soap/xml-write-tree.ts';
import { requestSchema } from './soap-requests.ts';

/** Validates a request against one of the request schemas (the caller's validator). */
export type ValidateRequest = (xml: string, schema: 'request' | 'request-business') => Promise<Verdict>;

/**
 * SOAP-01.schema's verdict on one request, by difference. SOAP-01 quotes "All SOAP calls carry an eb:MessageHeader
 * (…) and a security header": what the security header carries is SOAP-03's (the UsernameToken) and SOAP-04's (the
 * BinarySecurityToken), and the bodies of the auth operations are SOAP-03's (the manifest) and SESS-05's (the
 * SessionCloseRQ element). A request that does not validate is validated again with those parts as the harness's own
 * client writes them (everything else as sent): valid then, its deviation is another rule's, which judges it, and
 * SOAP-01 holds (one deviation, one rule); invalid still, the second verdict names what is SOAP-01's own.
 */
export async function soap01SchemaVerdict(body: string, action: string | undefined, validate: ValidateRequest): Promise<Verdict> {
  const schema = requestSchema(action);
  const verdict = await validate(body, schema);
  if (verdict.valid || verdict.code !== 'schema-invalid') return verdict;
  const copy = withOwnedPartsAsWritten(body, action);
  return copy === undefined ? verdict : validate(copy, schema);
}

/** The parts other rules own, as the harness's client writes them, by action. */
interface OwnedParts {
  readonly security: XmlElement;
  /** The body's children, for the auth operations whose bodies the document describes; undefined: the body as sent. */
  readonly body: readonly XmlElement[] | undefined;
}

let templates: Map<string, OwnedParts> | undefined;

function ownedParts(action: string): OwnedParts | undefined {
  templates ??= buildTemplates();
  return templates.get(action) ?? templates.get('');
}

function buildTemplates(): Map<string, OwnedParts> {
  const header = makeRequestHeader({ action: 'X', cpaId: 'X', conversationId: 'X', messageId: 'X', now: new Date(0) });
  const parts = (security: RequestSecurity, soapBody: SoapBody, described: boolean): OwnedParts => {
    const parsed = parseXmlTree(buildRequest({ header, security, body: soapBody }));
    if (!parsed.ok) throw new Error(`the template request does not parse: ${parsed.message}`);
    const h = childElement(parsed.root, NS.soapEnv, 'Header');
    const b = childElement(parsed.root, NS.soapEnv, 'Body');
    return { security: childElement(h, NS.wsse, 'Security')!, body: described ? b!.children : undefined };
  };
  const credentials = usernameToken({ username: 'X', password: 'X', organization: 'X' });
  const token: RequestSecurity = { kind: 'binarySecurityToken', token: 'X' };
  return new Map([
    ['TokenCreateRQ', parts(credentials, tokenCreateRQBody(), true)],
    ['SessionCreateRQ', parts(credentials, sessionCreateRQBody(), true)],
    ['SessionCloseRQ', parts(token, sessionCloseRQBody({ pseudoCityCode: 'X', timeStamp: '2000-01-01T00:00:00Z' }), true)],
    // Any later call: the token in the security header, the body as sent (a business body is free).
    ['', parts(token, otaPingRQBody(), false)],
  ]);
}

/**
 * The request with its first wsse:Security header's content, and the body of an auth operation, replaced by the
 * harness client's; `undefined` when there is nothing to replace (no action read, not parsed, no Envelope/Header/Body).
 */
function withOwnedPartsAsWritten(body: string, action: string | undefined): string | undefined {
  if (action === undefined) return undefined;
  const parsed = parseXmlTree(body);
  if (!parsed.ok) return undefined;
  const envelope = parsed.root;
  const header = childElement(envelope, NS.soapEnv, 'Header');
  const soapBody = childElement(envelope, NS.soapEnv, 'Body');
  const owned = ownedParts(action);
  if (!header || !soapBody || !owned) return undefined;
  const security = childElement(header, NS.wsse, 'Security');
  const newHeader: XmlElement = security
    ? { ...header, children: header.children.map((c) => (c === security ? { ...security, children: owned.security.children, text: '' } : c)) }
    : header;
  const newBody: XmlElement = owned.body ? { ...soapBody, children: owned.body, text: '' } : soapBody;
  if (newHeader === header && newBody === soapBody) return undefined;
  try {
    return writeXmlTree({ ...envelope, children: envelope.children.map((c) => (c === header ? newHeader : c === soapBody ? newBody : c)) });
  } catch {
    return undefined;
  }
}
