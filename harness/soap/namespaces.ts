/**
 * The namespace URIs of the SOAP interface and the prefixes this harness writes them with.
 * @see ../../../shared/design/PUBLIC-FACTS.md "SOAP transport"
 */
export const NS = {
  /** SOAP 1.1 envelope. */
  soapEnv: 'http://schemas.xmlsoap.org/soap/envelope/',
  /** ebXML message header (`eb:MessageHeader`, `eb:Manifest`). */
  eb: 'http://www.ebxml.org/namespaces/messageHeader',
  /** The security header (`wsse:Security`, `wsse:UsernameToken`, `wsse:BinarySecurityToken`). */
  wsse: 'http://schemas.xmlsoap.org/ws/2002/12/secext',
  /** OTA bodies: SessionCreate, SessionClose, OTA_Ping and the business actions. */
  ota: 'http://www.opentravel.org/OTA/2002/11',
  /** TokenCreate bodies. */
  sws: 'http://webservices.sabre.com',
  /** `xlink:href` of `eb:Reference`. */
  xlink: 'http://www.w3.org/1999/xlink',
  /** Bound to the prefix `xml` by definition. */
  xml: 'http://www.w3.org/XML/1998/namespace',
  /** Bound to the prefix `xmlns` by definition. */
  xmlns: 'http://www.w3.org/2000/xmlns/',
} as const;

/** The prefixes the builders write (those the real service uses). */
export const PREFIX = {
  soapEnv: 'soap-env',
  eb: 'eb',
  wsse: 'wsse',
  sws: 'sws',
  xlink: 'xlink',
} as const;

/**
 * What is wrong with binding `prefix` ('' for the default namespace) to `value` by the attribute `name` of `<qname>`
 * (Namespaces in XML §3), or `undefined`: the reserved prefixes and names, and unbinding a prefix (XML 1.0).
 */
export function namespaceBindingProblem(name: string, prefix: string, value: string, qname: string): string | undefined {
  if (prefix === 'xmlns' || (prefix === 'xml') !== (value === NS.xml) || value === NS.xmlns) return `reserved namespace binding ${name}="${value}" on <${qname}>`;
  if (prefix !== '' && value === '') return `${name}="" on <${qname}>: a prefix cannot be unbound in XML 1.0`;
  return undefined;
}
