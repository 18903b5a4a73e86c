/**
 * Escaping for the builders and entity decoding for the parser: the two places where text crosses the XML syntax.
 * @see https://www.w3.org/TR/xml/#syntax
 */
import type { SoapErrorCode } from './errors.ts';

/** Characters outside XML 1.0 `Char` (§2.2): C0 controls but tab/LF/CR, lone surrogates, U+FFFE and U+FFFF. */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** The first character of `text` that XML 1.0 cannot carry, as `U+XXXX`, or `undefined`. */
export function findInvalidXmlChar(text: string): string | undefined {
  const match = NOT_XML_CHAR.exec(text);
  if (!match) return undefined;
  return `U+${(match[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Thrown by the builders for a value XML cannot carry. */
export class XmlTextError extends Error {
  readonly code = 'invalid-xml-character' satisfies SoapErrorCode;
  constructor(character: string, where: string) {
    super(`${where} holds ${character}, which XML 1.0 cannot carry (not even as a character reference)`);
    this.name = 'XmlTextError';
  }
}

function assertXmlText(text: string, where: string): void {
  const bad = findInvalidXmlChar(text);
  if (bad !== undefined) throw new XmlTextError(bad, where);
}

/**
 * Escapes character data so that a conforming parser reads back exactly `text`: `&`, `<`, `>` (so `]]>` cannot
 * appear) and CR (which a parser would otherwise normalise to LF, §2.11).
 */
export function escapeText(text: string, where = 'text'): string {
  assertXmlText(text, where);
  return text.replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c] ?? c);
}

/**
 * Escapes an attribute value (for double quotes) so that it reads back exactly: besides `escapeText`'s characters,
 * `"` and `'`, and tab/LF as character references (attribute-value normalisation would turn them into spaces, §3.3.3).
 */
export function escapeAttribute(value: string, where = 'attribute value'): string {
  assertXmlText(value, where);
  return value.replace(/[&<>"'\t\n\r]/g, (c) => ATTRIBUTE_ESCAPES[c] ?? c);
}

const TEXT_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };
const ATTRIBUTE_ESCAPES: Readonly<Record<string, string>> = {
  ...TEXT_ESCAPES, '"': '&quot;', "'": '&apos;', '\t': '&#9;', '\n': '&#10;',
};

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };

export type DecodeResult = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string };

/**
 * Replaces the five predefined entities and character references (§4.1, §4.6). Any other entity reference is an
 * error: no DTD is ever read, so no other entity can be declared. A bare `&` is an error too.
 */
export function decodeEntities(raw: string): DecodeResult {
  if (!raw.includes('&')) return { ok: true, text: raw };
  let message: string | undefined;
  const text = raw.replace(/&([^;&\s]*);?/g, (whole, name: string) => {
    if (message !== undefined) return whole;
    if (!whole.endsWith(';')) {
      message = `a bare "&" in "${excerpt(raw)}" (write "&amp;")`;
      return whole;
    }
    const predefined = PREDEFINED[name];
    if (predefined !== undefined) return predefined;
    const numeric = /^#(?:x([0-9A-Fa-f]{1,6})|([0-9]{1,7}))$/.exec(name);
    if (numeric) {
      const code = numeric[1] !== undefined ? Number.parseInt(numeric[1], 16) : Number(numeric[2]);
      const char = code <= 0x10ffff ? String.fromCodePoint(code) : '';
      if (char === '' || findInvalidXmlChar(char) !== undefined) {
        message = `the character reference "&${name};" is not an XML character`;
        return whole;
      }
      return char;
    }
    message = `undefined entity "&${name};" (only &lt; &gt; &amp; &apos; &quot; and character references exist without a DTD)`;
    return whole;
  });
  return message === undefined ? { ok: true, text } : { ok: false, message };
}

function excerpt(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
