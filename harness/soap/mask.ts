/**
 * Redaction of SOAP envelopes for report evidence (ARCHITECTURE.md: "never puts a secret in a report or a log").
 * Works on the text, so it also masks envelopes that are not well-formed — the ones most likely to end up in a report.
 */

/** What replaces a secret. */
export const MASK = '***';

const NAME = '[A-Za-z_][\\w.-]*';
/**
 * The content of `<prefix:Password …>` and `<prefix:BinarySecurityToken …>` (any prefix or none): text and CDATA
 * sections up to the next tag, so that an element left open by a truncated envelope is masked too.
 */
const SECRET_ELEMENT = new RegExp(
  `(<(?:${NAME}:)?(?:Password|BinarySecurityToken)(?:\\s[^>]*)?(?<!/)>)((?:<!\\[CDATA\\[[\\s\\S]*?(?:\\]\\]>|$)|[^<])*)`,
  'g',
);
/** The faultstring of Client.InvalidSecurityToken quotes the token after "token:". */
const FAULTSTRING_TOKEN = new RegExp(`(<(?:${NAME}:)?faultstring(?:\\s[^>]*)?>[^<]*?token:\\s*)([^<]+)`, 'gi');
/** Token shapes (PUBLIC-FACTS.md): sessionless `T1RLAQ…` and session `Shared/IDL:…`, wherever they appear. */
const TOKEN_SHAPES = /T1RLAQ[A-Za-z0-9+/=*_.-]*|Shared\/IDL:[^\s<>"']*/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `xml` with the text of every `Password` and `BinarySecurityToken` element (any prefix), the token a faultstring
 * quotes, anything shaped like a token, and every other occurrence of a secret found that way (e.g. an echoed token
 * in a ConversationId) replaced by `***`.
 */
export function maskEnvelope(xml: string): string {
  const secrets = new Set<string>();
  let masked = xml.replace(SECRET_ELEMENT, (_whole, open: string, content: string) => {
    const secret = content.trim();
    if (secret !== '' && secret !== MASK) {
      secrets.add(secret);
      // A secret sent in CDATA may appear elsewhere as plain or escaped text.
      const plain = secret.replace(/<!\[CDATA\[([\s\S]*?)(?:\]\]>|$)/g, '$1');
      secrets.add(plain);
      secrets.add(plain.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'));
    }
    return `${open}${content === '' ? '' : MASK}`;
  });
  masked = masked.replace(FAULTSTRING_TOKEN, (_whole, open: string, token: string) => {
    if (token.trim() !== MASK) secrets.add(token.trim());
    return `${open}${MASK}`;
  });
  // Secrets shorter than 4 characters would mask unrelated text; the element itself is masked in any case.
  const others = [...secrets].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
  if (others.length > 0) masked = masked.replace(new RegExp(others.map(escapeRegExp).join('|'), 'g'), MASK);
  return masked.replace(TOKEN_SHAPES, MASK);
}

export interface ExcerptOptions {
  /** Local name of the element to cut out (e.g. `Security`, `MessageHeader`, `Fault`); the whole envelope if absent. */
  readonly element?: string;
  /** Longest excerpt, in characters (default 2000); longer ones are cut and end in `…`. */
  readonly maxLength?: number;
}

/**
 * The part of an envelope a report needs, masked with {@link maskEnvelope}: the first element with the given local
 * name (any prefix), or the whole envelope without its XML declaration; whitespace between tags is collapsed.
 * `undefined` when the element is not found.
 */
export function envelopeExcerpt(xml: string, options: ExcerptOptions = {}): string | undefined {
  const maxLength = options.maxLength ?? 2000;
  let text = maskEnvelope(xml).replace(/^\uFEFF?\s*<\?xml[^>]*\?>\s*/, '');
  if (options.element !== undefined) {
    const found = findElement(text, options.element);
    if (found === undefined) return undefined;
    text = found;
  }
  text = text.replace(/>\s+</g, '><').trim();
  return text.length > maxLength ? `${text.slice(0, Math.max(0, maxLength - 1))}…` : text;
}

function findElement(text: string, localName: string): string | undefined {
  const name = escapeRegExp(localName);
  const open = new RegExp(`<((?:${NAME}:)?${name})(?:\\s[^>]*)?>`).exec(text);
  if (!open) return undefined;
  if (open[0].endsWith('/>')) return open[0];
  const qname = escapeRegExp(open[1] ?? localName);
  // Same-named nesting is not expected in an envelope: the first closing tag ends the element.
  const close = new RegExp(`</${qname}\\s*>`).exec(text.slice(open.index));
  return close ? text.slice(open.index, open.index + close.index + close[0].length) : text.slice(open.index);
}
