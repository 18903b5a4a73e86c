/**
 * The screening every incoming document goes through before any XML processor sees it (the parser and both XSD
 * validation paths): a size bound and no DTD at all, so no entity can be declared or expanded (no XXE, no
 * "billion laughs").
 */

/** Default bound on an envelope, in UTF-8 bytes. Real auth envelopes are a few kilobytes. */
export const DEFAULT_MAX_ENVELOPE_BYTES = 1024 * 1024;

export type ScreenCode = 'too-large' | 'doctype-forbidden';

export interface ScreenFailure {
  readonly code: ScreenCode;
  readonly message: string;
}

/**
 * `undefined` when `xml` may be handed to an XML processor. A document type declaration or an entity declaration
 * anywhere in the text is refused, even inside a comment or CDATA section: SOAP forbids a DTD (SOAP 1.1 §3), and a
 * check on the raw text cannot be fooled by markup.
 */
export function screenInput(xml: string, maxBytes = DEFAULT_MAX_ENVELOPE_BYTES): ScreenFailure | undefined {
  // Cheap bound first: a UTF-16 code unit is at most 3 UTF-8 bytes.
  if (xml.length > maxBytes || (xml.length * 3 > maxBytes && Buffer.byteLength(xml, 'utf8') > maxBytes)) {
    return { code: 'too-large', message: `the document is larger than ${maxBytes} bytes` };
  }
  const declaration = /<!\s*(DOCTYPE|ENTITY)/i.exec(xml);
  if (declaration) {
    return {
      code: 'doctype-forbidden',
      message: `a "<!${(declaration[1] ?? '').toUpperCase()}" declaration was found; DTDs are refused (no entity is ever expanded)`,
    };
  }
  return undefined;
}
