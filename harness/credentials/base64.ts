const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Standard base64 (RFC 4648 §4, padded) of the UTF-8 bytes of `text`. */
export function encodeBase64Utf8(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/**
 * Strict inverse of {@link encodeBase64Utf8}: `undefined` unless `value` is canonical padded base64 of valid UTF-8.
 * (Node's own decoder skips bad characters silently; a conformance check must not.)
 */
export function decodeBase64Utf8(value: string): string | undefined {
  if (!STRICT_BASE64.test(value)) return undefined;
  const bytes = Buffer.from(value, 'base64');
  if (bytes.toString('base64') !== value) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}
