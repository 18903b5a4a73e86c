/**
 * Redaction of secrets: nothing the harness writes (reports, logs, evidence) may hold a password or a token.
 *
 * Two nets, applied in this order:
 * 1. **By pattern**: values that are secret by their place or shape, registered or not (see {@link redactPatterns}).
 * 2. **By value**: every registered secret, in the forms it takes on the wire and in files (see {@link secretForms}).
 *
 * Patterns go first so that a credential is replaced whole (`Basic «redacted»`) rather than around the part of it
 * a registered secret covers.
 *
 * Every redacted value becomes {@link REDACTED}. It was chosen over `***` because it survives every output format
 * unchanged: `***` is emphasis in Markdown, while `«redacted»` needs no escaping in JSON, XML or Markdown.
 */

/** What a redacted value is replaced with, everywhere. */
export const REDACTED = '«redacted»';

/**
 * Secrets shorter than this are not registered: redacting every `abc` of a report would destroy its text while
 * protecting nothing (such a password is not a secret). Length counts UTF-16 code units; encoded forms shorter than
 * this are not redacted either.
 */
export const MIN_SECRET_LENGTH = 4;

/** Shifted base64 fragments shorter than this are not redacted: short fragments match ordinary words too often. */
const MIN_BASE64_FRAGMENT = 6;

/**
 * A service may echo the start of a secret it was sent ("the secret starting …" in an error description): the starts of
 * a password of this many characters or more are redacted too, for passwords up to {@link MAX_PREFIXED_SECRET}
 * characters (not tokens: a token's start is its shape's, shared by every token), as {@link redactableStart} says.
 */
const MIN_SECRET_PREFIX = 8;
const MAX_PREFIXED_SECRET = 64;

/**
 * Whether a start of a password is redacted. One of letters and separators alone (`-`, `_`, `.`, a space) is text of
 * reports too ("Password" of "Password1!", "correlation-" of --no-correlation-header): only when it is 16 characters or
 * more, or 12 or more, all but 3 of the password and not cut at a separator. Any other start: when it looks like a
 * secret, or is all but 3 of the password.
 */
function redactableStart(start: string, whole: string): boolean {
  const most = start.length >= whole.length - 3;
  if (/^[A-Za-z ._-]+$/.test(start)) return start.length >= 16 || (start.length >= 12 && most && !/[ ._-]$/.test(start));
  return most || secretLike(start);
}

/**
 * Whether a start of a password that is not letters and separators alone looks like a secret, not like ordinary text:
 * at least two of lower-case letters, upper-case letters, digits and other characters (a space, "-", "_" and "." count
 * as none).
 */
function secretLike(start: string): boolean {
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9 ._-]/].filter((c) => c.test(start)).length;
  return classes >= 2;
}

/**
 * The forms a secret takes in text, each redacted on its own:
 * - as is, and its UTF-8 bytes read as Latin-1; and, for a password (`starts`) of at most 64 characters, each of these
 *   starts of 8 characters or more that looks like a secret, not a word (a service that echoes the start of what it
 *   was sent);
 * - JSON-escaped (also with non-ASCII as `\uXXXX`, and with `\/`);
 * - URL-encoded: `encodeURIComponent` and form encoding (`application/x-www-form-urlencoded`, space as `+`), with
 *   upper- and lower-case hex;
 * - XML-escaped: text (`&amp; &lt; &gt;`, or only `&amp; &lt;`) and attribute (quotes as `&quot; &apos;` or as
 *   `&#34; &#39;` / `&#x22; &#x27;`), also of the JSON-escaped form;
 * - base64 and base64url of its UTF-8 bytes, padded and not, and URL-encoded; and the fragments of base64 that stay
 *   the same whatever bytes surround the secret (one per alignment, when 6 characters or longer), so a secret
 *   inside a longer base64 string is found too; the same for its base64 form, so the password inside REST
 *   credentials (`base64(base64(ClientID):base64(password))`) is found.
 *
 * Forms shorter than {@link MIN_SECRET_LENGTH} are left out.
 */
export function secretForms(secret: string, options: { readonly starts?: boolean } = {}): string[] {
  const forms = new Set<string>();
  const add = (form: string | undefined): void => {
    if (form !== undefined && form.length >= MIN_SECRET_LENGTH) forms.add(form);
  };

  add(secret);
  // The secret's UTF-8 bytes read as Latin-1 (a service that decodes them so, and echoes what it read).
  const latin1 = Buffer.from(secret, 'utf8').toString('latin1');
  add(latin1);
  const json = JSON.stringify(secret).slice(1, -1);
  if (options.starts && secret.length <= MAX_PREFIXED_SECRET) {
    for (const whole of new Set([secret, json, latin1, JSON.stringify(latin1).slice(1, -1)])) {
      for (let n = MIN_SECRET_PREFIX; n < whole.length; n++) {
        const start = whole.slice(0, n);
        if (redactableStart(start, whole)) add(start);
      }
    }
  }
  for (const j of [json, asciiJson(json, false), asciiJson(json, true), json.replaceAll('/', '\\/')]) add(j);
  for (const u of urlForms(secret)) add(u);
  for (const x of xmlForms(secret)) add(x);
  for (const x of xmlForms(json)) add(x);

  const bytes = Buffer.from(secret, 'utf8');
  const b64 = bytes.toString('base64');
  const b64url = bytes.toString('base64url');
  for (const b of [b64, b64.replace(/=+$/, ''), b64url, `${b64url}${'='.repeat((4 - (b64url.length % 4)) % 4)}`]) {
    add(b);
    add(encodeURIComponent(b));
  }
  // base64 of base64: REST credentials are base64( base64(ClientID) + ":" + base64(password) ).
  const fragments = [bytes, Buffer.from(b64), Buffer.from(b64.replace(/=+$/, ''))].flatMap(base64Fragments);
  for (const fragment of fragments) {
    add(fragment);
    add(fragment.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return [...forms];
}

/**
 * The length of the shortest of `secret`'s forms ({@link secretForms}): the secret's own, for every form but a
 * password's starts (8 characters). Escaping (JSON, URL, XML) only lengthens a text; its UTF-8 bytes are at least as
 * many as its UTF-16 code units; base64 of m bytes has at least m characters, and so has each of its fragments for
 * m >= 4 (the shortest, at one byte of offset, has floor(4(m+1)/3) - 2).
 */
export function shortestForm(secret: string, starts: boolean): number {
  return starts ? Math.min(secret.length, MIN_SECRET_PREFIX) : secret.length;
}

/** What secret-bearing keys hold: the value of such a property is redacted whole (strings only). */
const SENSITIVE_KEY = /^(?:password|passwd|client_?secret|secret|access_?token|refresh_?token|binary_?security_?token|authorization)$/i;

/**
 * Collects secrets and removes them from text and data.
 *
 * Redaction is one pass, left to right, longest form first. A secret that is itself part of the text of
 * {@link REDACTED} (say `dact`) stays visible inside the marks; no such secret can be worth hiding.
 *
 * The forms of the registered secrets are kept in one {@link FormTrie}, to which a new secret's forms are added when
 * the next redaction needs them (nothing is rebuilt): registering n secrets costs time linear in n, and one redaction
 * costs time linear in the text, whatever the number of secrets.
 */
export class Redactor {
  readonly #secrets = new Set<string>();
  #forms = new FormTrie();
  /**
   * Secrets whose forms are not in the trie yet: a test worker registers every token the service issues (hundreds a
   * run) and redacts little, most of it short (a request's path and a message at the end of each check, a failure's
   * evidence), so a secret's forms are computed when a redaction first needs them, once each: when the text is long
   * enough to hold the shortest of them ({@link shortestForm}; a token's are as long as the token).
   */
  #pending: string[] = [];
  /** The least {@link shortestForm} of the pending secrets: no text shorter than this holds a form of one. */
  #pendingShortest = Infinity;
  /** The registered secrets that are passwords: their starts are redacted too (see {@link secretForms}). */
  readonly #passwords = new Set<string>();

  constructor(secrets: Iterable<string> = []) {
    for (const secret of secrets) this.add(secret);
  }

  /** Registers a secret; secrets shorter than {@link MIN_SECRET_LENGTH} are ignored. */
  add(secret: string): this {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH || this.#secrets.has(secret)) return this;
    this.#secrets.add(secret);
    this.#wait(secret);
    return this;
  }

  #wait(secret: string): void {
    this.#pending.push(secret);
    this.#pendingShortest = Math.min(this.#pendingShortest, shortestForm(secret, this.#passwords.has(secret)));
  }

  /**
   * Registers a password (or client secret): besides its forms, its starts of 8 characters or more are redacted, since
   * a service may echo the start of a secret it was sent.
   */
  addPassword(secret: string): this {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH || this.#passwords.has(secret)) return this;
    this.#passwords.add(secret);
    // Already registered as a plain secret: its forms are in the trie (or pending); the starts go in now.
    if (this.#secrets.has(secret)) {
      this.#wait(secret);
      return this;
    }
    return this.add(secret);
  }

  /** Forgets every registered secret (a worker starts each test file with none: its secrets do not pile up). */
  clear(): void {
    this.#passwords.clear();
    this.#secrets.clear();
    this.#forms = new FormTrie();
    this.#pending = [];
    this.#pendingShortest = Infinity;
  }

  /**
   * The trie of the registered secrets' forms, with every form a text of `length` characters can hold: the forms of
   * the pending secrets whose shortest form is that long or shorter are added (those of the others cannot be in it).
   */
  #trie(length: number): FormTrie {
    if (length < this.#pendingShortest) return this.#forms;
    const later: string[] = [];
    let shortest = Infinity;
    for (const secret of this.#pending) {
      const starts = this.#passwords.has(secret);
      const least = shortestForm(secret, starts);
      if (least > length) {
        later.push(secret);
        shortest = Math.min(shortest, least);
      } else {
        for (const form of secretForms(secret, { starts })) this.#forms.add(form);
      }
    }
    this.#pending = later;
    this.#pendingShortest = shortest;
    return this.#forms;
  }

  /** How many secrets are registered. */
  get size(): number {
    return this.#secrets.size;
  }

  /** The text with every registered secret (in every form) and every secret-shaped value replaced by {@link REDACTED}. */
  redact(text: string): string {
    return this.redactValues(redactPatterns(text));
  }

  /**
   * Only the registered secrets, no patterns. For text whose syntax must stay intact (an already serialized JSON or
   * XML document), where a pattern could cut an escape sequence in two.
   */
  redactValues(text: string): string {
    if (this.#secrets.size === 0 || text.length < MIN_SECRET_LENGTH) return text;
    const forms = this.#trie(text.length);
    let out = '';
    let kept = 0;
    for (let i = 0; i <= text.length - MIN_SECRET_LENGTH; ) {
      const length = forms.longestAt(text, i);
      if (length === 0) {
        i++;
        continue;
      }
      out += text.slice(kept, i) + REDACTED;
      i += length;
      kept = i;
    }
    return kept === 0 ? text : out + text.slice(kept);
  }

  /**
   * A copy of plain data (objects, arrays, strings, numbers…) with every string redacted, and the string value of
   * a secret-bearing property (`password`, `client_secret`, `access_token`, `authorization`, …) replaced whole
   * (an authorization value keeps its scheme). Keys are kept as they are; instances of classes (`Date`, `Map`, …)
   * are returned unchanged; cycles are preserved.
   */
  redactDeep<T>(value: T): T {
    return this.#deep(value, undefined, new WeakMap()) as T;
  }

  #deep(value: unknown, key: string | undefined, seen: WeakMap<object, unknown>): unknown {
    if (typeof value === 'string') {
      return key !== undefined && SENSITIVE_KEY.test(key) ? maskWhole(key, value) : this.redact(value);
    }
    if (typeof value !== 'object' || value === null) return value;
    const known = seen.get(value);
    if (known !== undefined) return known;
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      seen.set(value, out);
      for (const item of value) out.push(this.#deep(item, undefined, seen));
      return out;
    }
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;
    const out: Record<string, unknown> = {};
    seen.set(value, out);
    for (const [k, v] of Object.entries(value)) out[k] = this.#deep(v, k, seen);
    return out;
  }
}

const PLAIN_WORD = /^[A-Za-z][a-z]*(?:-[a-z]+)*\.?$/;
const TOKEN_KEYS = 'password|client_secret|access_token|refresh_token';

/** Patterns of secret-shaped values, each with what replaces a match. */
const PATTERNS: readonly (readonly [RegExp, (match: string, ...groups: string[]) => string])[] = [
  // `Basic <credentials>`, `Bearer <token>`: the whole value, up to white space, a quote, a bracket or a separator —
  // not only its token68 characters (RFC 7235), so that a garbled value (`Basic VmpF…!MzNF…`, a stray character
  // in a generated malformed credential) is masked whole rather than up to its first odd character. A plain word
  // after the scheme ("Bearer token.", "Basic non-empty") is prose, not a credential, and is kept.
  [/\b(Basic|Bearer)([ \t]+)([^\s"'`<>\\|,;()[\]{}]+)/gi,
    (match, scheme = '', space = '', value = '') => (PLAIN_WORD.test(value) ? match : `${scheme}${space}${REDACTED}`)],
  // JSON fields: "password": "…", and the same inside a JSON string (\"password\": \"…\").
  [new RegExp(`("(?:${TOKEN_KEYS})"\\s*:\\s*")((?:[^"\\\\]|\\\\.)+)(")`, 'gi'), keepEnds],
  [new RegExp(`(\\\\"(?:${TOKEN_KEYS})\\\\"\\s*:\\s*\\\\")((?:(?!\\\\")[^\\n])+)(\\\\")`, 'gi'), keepEnds],
  // Form and query fields: password=…&
  [new RegExp(`((?:^|[?&\\s])(?:${TOKEN_KEYS})=)([^&\\s]+)()`, 'gim'), keepEnds],
  // <wsse:Password …>…</wsse:Password> and <…:BinarySecurityToken …>…</…:BinarySecurityToken>, any prefix or none,
  // raw and XML-escaped.
  [/(<((?:[A-Za-z_][\w.-]*:)?(?:Password|BinarySecurityToken))\b[^<>]*(?<!\/)>)([^<]+)(<\/\2\s*>)/g,
    (_match, open = '', _name, _content, close = '') => `${open}${REDACTED}${close}`],
  [/(&lt;((?:[A-Za-z_][\w.-]*:)?(?:Password|BinarySecurityToken))\b(?:(?!&gt;)[^<>&]|&(?!gt;))*(?<!\/)&gt;)((?:(?!&lt;)[\s\S])+)(&lt;\/\2\s*&gt;)/g,
    (_match, open = '', _name, _content, close = '') => `${open}${REDACTED}${close}`],
  // Sessionless tokens: T1RLAQ…
  [/T1RLAQ[A-Za-z0-9+/=_\-*%\\]{4,}/g, () => REDACTED],
  // Session tokens: Shared/IDL:IceSess\/SessMgr:1\.0.IDL/Common/!ICESMS\/RESE!ICESMSLB\/RES.LB!-3177016070087638144!110012!0
  [/Shared\\?\/IDL:[^\s<>"'&]+/g, () => REDACTED],
];

/**
 * Values secret by their place or shape, whether registered or not: the credentials after `Basic ` and `Bearer `;
 * the values of the JSON, form and query fields `password`, `client_secret`, `access_token`, `refresh_token`; the
 * text of `Password` and `BinarySecurityToken` elements with any namespace prefix (raw or XML-escaped); sessionless
 * tokens (`T1RLAQ…`) and session tokens (`Shared/IDL:…`).
 */
export function redactPatterns(text: string): string {
  let out = text;
  for (const [pattern, replace] of PATTERNS) out = out.replace(pattern, replace);
  return out;
}

function keepEnds(_match: string, open = '', _value = '', close = ''): string {
  return `${open}${REDACTED}${close}`;
}

function maskWhole(key: string, value: string): string {
  if (value === '') return value;
  if (key.toLowerCase() === 'authorization') {
    const scheme = /^([A-Za-z][\w-]*)[ \t]+\S/.exec(value);
    if (scheme?.[1]) return `${scheme[1]} ${REDACTED}`;
  }
  return REDACTED;
}

/** Forms a trie node holds as a list before it splits into children by their next character. */
const BUCKET_SIZE = 8;

interface TrieNode {
  /** A form ends at this node (its length is the node's depth); only for nodes with children. */
  ends: boolean;
  /** Child nodes by the UTF-16 code unit that follows; undefined while the node holds a bucket. */
  children: Map<number, TrieNode> | undefined;
  /** Up to {@link BUCKET_SIZE} forms starting with this node's path, compared whole. */
  bucket: string[] | undefined;
}

const bucketNode = (): TrieNode => ({ ends: false, children: undefined, bucket: [] });

/**
 * The set of forms as a burst trie: a path of single characters down to where forms diverge, then a small bucket of
 * whole forms. Adding a form costs time linear in its length; finding the longest form that starts at a position
 * walks at most the distinguishing prefix and compares at most {@link BUCKET_SIZE} forms, however many forms there
 * are. Memory is the forms themselves plus a node per distinguishing character.
 */
class FormTrie {
  readonly #root: TrieNode = bucketNode();

  add(form: string): void {
    this.#insert(this.#root, form, 0);
  }

  #insert(start: TrieNode, form: string, depth: number): void {
    let node = start;
    let d = depth;
    while (node.children) {
      if (d === form.length) {
        node.ends = true;
        return;
      }
      const code = form.charCodeAt(d);
      let child = node.children.get(code);
      if (!child) node.children.set(code, (child = bucketNode()));
      node = child;
      d++;
    }
    const bucket = node.bucket as string[];
    if (bucket.includes(form)) return;
    bucket.push(form);
    if (bucket.length <= BUCKET_SIZE) return;
    // Burst: the node gets children by the next character, and its forms move down.
    node.children = new Map();
    node.bucket = undefined;
    for (const f of bucket) this.#insert(node, f, d);
  }

  /** The length of the longest form that occurs in `text` at `index`, or 0. */
  longestAt(text: string, index: number): number {
    let longest = 0;
    let node = this.#root;
    let d = 0;
    for (;;) {
      if (node.bucket) {
        for (const form of node.bucket) if (form.length > longest && text.startsWith(form, index)) longest = form.length;
        return longest;
      }
      if (node.ends) longest = d;
      if (index + d >= text.length) return longest;
      const child = (node.children as Map<number, TrieNode>).get(text.charCodeAt(index + d));
      if (!child) return longest;
      node = child;
      d++;
    }
  }
}

function asciiJson(json: string, upper: boolean): string {
  return json.replace(/[\u007f-\uffff]/g, (c) => {
    const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  });
}

function urlForms(secret: string): string[] {
  const forms: string[] = [];
  try {
    forms.push(encodeURIComponent(secret));
  } catch {
    // a lone surrogate: encodeURIComponent throws, and no URL can hold it as is
  }
  forms.push(new URLSearchParams([['', secret]]).toString().slice(1));
  return forms.flatMap((f) => [f, f.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())]);
}

function xmlForms(text: string): string[] {
  const amp = text.replaceAll('&', '&amp;');
  const lt = amp.replaceAll('<', '&lt;');
  const gt = lt.replaceAll('>', '&gt;');
  return [
    lt,
    gt,
    gt.replaceAll('"', '&quot;').replaceAll("'", '&apos;'),
    gt.replaceAll('"', '&#34;').replaceAll("'", '&#39;'),
    gt.replaceAll('"', '&#x22;').replaceAll("'", '&#x27;'),
  ];
}

/**
 * The base64 characters that depend only on the secret's bytes, for each of the three alignments the secret can
 * have inside a longer byte string: character `i` covers bits `[6i, 6i+6)`, the secret bits `[8k, 8(k+n))`.
 */
function base64Fragments(bytes: Buffer): string[] {
  const fragments: string[] = [];
  for (let k = 0; k < 3; k++) {
    const encoded = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    const fragment = encoded.slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + bytes.length)) / 6));
    if (fragment.length >= MIN_BASE64_FRAGMENT) fragments.push(fragment);
  }
  return fragments;
}

/**
 * `value` as JSON text with every string redacted before it is encoded: redacting the JSON text instead misses a
 * secret inside a string that itself holds JSON (an answer body quoting the password echoed with `\"`, which the
 * outer encoding escapes again to `\\\"`: a blind service's echo reached traffic.har that way). Keys are not redacted:
 * the callers' keys are names of their own (a HAR's headers and parameters are `{ name, value }` strings).
 */
export function redactedJson(value: unknown, redact: (text: string) => string, space?: number): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? redact(v) : v), space);
}
