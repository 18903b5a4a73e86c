/**
 * Characters XML 1.0 cannot hold at all (C0 controls but tab, line feed and carriage return; U+FFFE, U+FFFF; lone
 * surrogates). They are replaced by U+FFFD so the document stays well-formed.
 * @see https://www.w3.org/TR/xml/#charsets
 */
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text content: `&`, `<` and `>` escaped, characters XML cannot hold replaced. */
export function xmlText(text: string): string {
  return text.replace(NOT_XML_CHAR, '\uFFFD').replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * An attribute value (for double quotes): also quotes escaped, and tab, line feed and carriage return as character
 * references so that attribute-value normalization does not turn them into spaces.
 */
export function xmlAttribute(text: string): string {
  return xmlText(text)
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;')
    .replaceAll('\t', '&#9;')
    .replaceAll('\n', '&#10;')
    .replaceAll('\r', '&#13;');
}
