/**
 * A document that is already text (decoded by the transport, harness/targets/transport.ts `decodeBody`) is handed to
 * the XML processors as UTF-8 bytes: an XML declaration that names another encoding (`encoding="UTF-16"`, a service
 * that answers in UTF-16) would then contradict its bytes, and the processor refuse a well-formed document. The
 * declaration is made to say UTF-8; nothing else of the text changes.
 */
const DECLARED_ENCODING = /^(\uFEFF?<\?xml\s[^?]*?encoding\s*=\s*)(["'])([A-Za-z][\w.-]*)\2/;

export function asUtf8Text(xml: string): string {
  const m = DECLARED_ENCODING.exec(xml);
  if (!m || m[3]!.toLowerCase() === 'utf-8') return xml;
  return `${m[1]}${m[2]}UTF-8${m[2]}${xml.slice(m[0].length)}`;
}
