import { decodeBase64Utf8 } from '../credentials/index.ts';

/**
 * The structure of REST credentials as evidence, never their secrets: each layer of encoding is named (`b64(…)`,
 * `urlenc(…)`), and each value of the account is masked with its length (`<password:9>`). The expected shape of an
 * account and the shape a client actually sent are written the same way, so a developer sees which layer differs:
 *
 *   expected  scheme "Basic", credentials b64( b64("V1:<epr:4>:<pcc:4>:AA") ":" b64(<password:9>) )
 *   actual    scheme "Basic", credentials b64( urlenc("V1:<epr:4>:<pcc:4>:AA") ":" urlenc(<password:9>) )
 *
 * (The scheme is quoted rather than followed by the credentials, so that the report's pattern redaction, which
 * masks whatever follows `Basic `, leaves the shape readable.)
 */

/** The account as the client was configured with it. */
export interface ShapeAccount {
  readonly epr: string;
  readonly pcc: string;
  readonly password: string;
  /** The REST domain the Client ID must carry (`AA` when none was configured). */
  readonly domain: string;
}

interface Rendered {
  readonly text: string;
  /** Whether the text is made of known values only (no unknown remainder). */
  readonly known: boolean;
}

const MAX_DEPTH = 4;

/** A value of the account, masked: `<epr:4>`. */
const mask = (name: string, value: string) => `<${name}:${[...value].length}>`;

/** The atoms a credential string is made of, longest first, so that a value holding another is matched whole. */
function atoms(account: ShapeAccount): { value: string; shown: string }[] {
  const list = [
    { value: account.password, shown: mask('password', account.password) },
    { value: account.epr, shown: mask('epr', account.epr) },
    { value: account.pcc, shown: mask('pcc', account.pcc) },
  ].filter((a) => a.value.length > 0);
  return list.sort((a, b) => b.value.length - a.value.length);
}

/** A literal run that is not a value of the account: shown when it is a short code (`V1`, `AA`), else masked. */
function literal(run: string, account: ShapeAccount): string {
  if (/^[A-Z0-9]{1,8}$/.test(run) && !account.password.includes(run)) return run;
  return `<${[...run].length} other chars>`;
}

/** A plain text (a Client ID, a password) with the account's values masked: `"V1:<epr:4>:<pcc:4>:AA"`. */
function renderPlain(text: string, account: ShapeAccount): Rendered {
  if (text === account.password) return { text: mask('password', text), known: true };
  const list = atoms(account);
  let out = '';
  let run = '';
  let known = true;
  const flush = () => {
    if (!run) return;
    for (const [i, part] of run.split(':').entries()) {
      if (i > 0) out += ':';
      if (!part) continue;
      const shown = literal(part, account);
      if (shown.startsWith('<')) known = false;
      out += shown;
    }
    run = '';
  };
  for (let i = 0; i < text.length;) {
    const atom = list.find((a) => text.startsWith(a.value, i));
    if (atom) {
      flush();
      out += atom.shown;
      i += atom.value.length;
    } else {
      run += text[i];
      i++;
    }
  }
  flush();
  return { text: JSON.stringify(out).replace(/\\"/g, '"'), known };
}

/** Form or URL decoding, when `text` is an encoding that changed something (`V1%3A…`). */
function urlDecoded(text: string): string | undefined {
  if (!/%[0-9A-Fa-f]{2}|\+/.test(text)) return undefined;
  try {
    const decoded = decodeURIComponent(text.replace(/\+/g, ' '));
    return decoded === text ? undefined : decoded;
  } catch {
    return undefined;
  }
}

/** Base64 (standard or URL-safe, padded or not) of UTF-8 text, decoded; `undefined` when `text` is not that. */
function base64Decoded(text: string): { decoded: string; variant: 'b64' | 'b64url' | 'b64 unpadded' } | undefined {
  if (text.length < 2) return undefined;
  const strict = decodeBase64Utf8(text);
  if (strict !== undefined) return { decoded: strict, variant: 'b64' };
  const padded = `${text}${'='.repeat((4 - (text.length % 4)) % 4)}`;
  const unpadded = decodeBase64Utf8(padded);
  if (unpadded !== undefined && /^[A-Za-z0-9+/]+$/.test(text)) return { decoded: unpadded, variant: 'b64 unpadded' };
  if (/^[A-Za-z0-9_-]+=*$/.test(text)) {
    const std = text.replace(/-/g, '+').replace(/_/g, '/');
    const url = decodeBase64Utf8(`${std.replace(/=+$/, '')}${'='.repeat((4 - (std.replace(/=+$/, '').length % 4)) % 4)}`);
    if (url !== undefined) return { decoded: url, variant: 'b64url' };
  }
  return undefined;
}

/** Whether a decoded text is plausibly what a client meant to encode (printable, not binary noise). */
const printable = (text: string) => text.length > 0 && !/[\u0000-\u001f\u007f\ufffd]/.test(text);

/** `b64(x)` around an atom, `b64( x ":" y )` around a join. */
const wrap = (name: string, inner: string) => (inner.includes(' ":" ') ? `${name}( ${inner} )` : `${name}(${inner})`);

function render(text: string, account: ShapeAccount, depth: number): Rendered {
  const plain = renderPlain(text, account);
  if (plain.known) return plain;
  if (depth >= MAX_DEPTH) return plain;
  const b64 = base64Decoded(text);
  if (b64 && printable(b64.decoded)) {
    const inner = render(b64.decoded, account, depth + 1);
    if (inner.known || depth === 0) return { text: wrap(b64.variant, inner.text), known: inner.known };
  }
  // Two parts joined by a colon, each recognised on its own: `b64(ClientID) ":" b64(password)`.
  let best: Rendered | undefined;
  for (let i = text.indexOf(':'); i >= 0; i = text.indexOf(':', i + 1)) {
    const left = render(text.slice(0, i), account, depth + 1);
    const right = render(text.slice(i + 1), account, depth + 1);
    if (left.known && right.known) return { text: `${left.text} ":" ${right.text}`, known: true };
    if (!best && (left.known || right.known)) best = { text: `${left.text} ":" ${right.text}`, known: false };
  }
  const url = urlDecoded(text);
  if (url !== undefined) {
    const inner = render(url, account, depth + 1);
    if (inner.known) return { text: wrap('urlenc', inner.text), known: true };
  }
  return best ?? plain;
}

/** The credentials the interface document asks for, as a shape. */
export function expectedShape(account: ShapeAccount): string {
  return `scheme "Basic", credentials ${wrap('b64', `${wrap('b64', renderPlain(`V1:${account.epr}:${account.pcc}:${account.domain}`, account).text)} ":" ${wrap('b64', mask('password', account.password))}`)}`;
}

/** The shape of the `Authorization` header a client sent, for the same account. */
export function actualShape(header: string | undefined, account: ShapeAccount): string {
  if (header === undefined || header.trim() === '') return '(no Authorization header)';
  const match = /^(\S+)( +)(\S*)\s*$/.exec(header);
  if (!match) return `an Authorization header of ${[...header].length} chars without "<scheme> <credentials>"`;
  const [, scheme = '', spaces = '', value = ''] = match;
  const shownScheme = /^[A-Za-z][A-Za-z0-9-]{0,15}$/.test(scheme) ? `"${scheme}"` : `<${[...scheme].length} chars>`;
  const gap = spaces.length === 1 ? '' : ` (${spaces.length} spaces after it)`;
  return `scheme ${shownScheme}${gap}, credentials ${render(value, account, 0).text}`;
}

/** The shape of a Client ID alone: `"V1:<epr:4>:<pcc:4>:AA"`. */
export function clientIdShape(clientId: string, account: ShapeAccount): string {
  return renderPlain(clientId, account).text;
}
