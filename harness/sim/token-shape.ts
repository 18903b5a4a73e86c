import { BASE64_ALPHABET, type Random } from './random.ts';

/**
 * The shape of a sessionless access token (latitude `token-format`): what a target's tokens look like, never a token.
 * `chars`: a fixed prefix and suffix around characters of one alphabet; `jwt`: three base64url parts, the first one
 * fixed (the header); `uuid`: a UUID.
 */
export type TokenShape =
  | { readonly kind: 'chars'; readonly prefix: string; readonly suffix: string; readonly alphabet: string; readonly length: number }
  | { readonly kind: 'jwt'; readonly header: string; readonly payloadLength: number; readonly signatureLength: number }
  | { readonly kind: 'uuid' };

export const HEX_ALPHABET = '0123456789abcdef';
export const URL_SAFE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
export const ALPHANUMERIC_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** The alphabets a learned shape is read into (the smallest that holds every character seen), smallest first. */
export const ALPHABETS: readonly string[] = [HEX_ALPHABET, '0123456789ABCDEF', ALPHANUMERIC_ALPHABET, URL_SAFE_ALPHABET, BASE64_ALPHABET, `${BASE64_ALPHABET}-_=.~`];

/** The shapes of the simulator's earlier token formats: the public `T1RLAQ…*`, hex, JWT-like, short, UUID. */
export const TOKEN_SHAPES = {
  public: { kind: 'chars', prefix: 'T1RLAQ', suffix: '*', alphabet: BASE64_ALPHABET, length: 125 },
  hex: { kind: 'chars', prefix: '', suffix: '', alphabet: HEX_ALPHABET, length: 64 },
  jwt: { kind: 'jwt', header: 'eyJhbGciOiJSUzI1NiJ9', payloadLength: 80, signatureLength: 43 },
  short: { kind: 'chars', prefix: '', suffix: '', alphabet: URL_SAFE_ALPHABET, length: 12 },
  uuid: { kind: 'uuid' },
} as const satisfies Record<string, TokenShape>;

/** A new token of `shape`. */
export function tokenOfShape(random: Random, shape: TokenShape): string {
  switch (shape.kind) {
    case 'chars': return `${shape.prefix}${random.chars(shape.alphabet, Math.max(1, shape.length - shape.prefix.length - shape.suffix.length))}${shape.suffix}`;
    case 'jwt': return `${shape.header}.${random.chars(URL_SAFE_ALPHABET, shape.payloadLength)}.${random.chars(URL_SAFE_ALPHABET, shape.signatureLength)}`;
    case 'uuid': {
      const h = random.chars(HEX_ALPHABET, 32);
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
    }
  }
}

/**
 * Whether tokens of `shape` are case-insensitive by nature (latitude `token-format`): a UUID, or characters of an
 * alphabet without two letters that fold together (hex, in either case) around a fixed prefix and suffix. No two tokens
 * of such a shape differ only in letter case, so a service may read them in any case.
 */
export function caseFoldable(shape: TokenShape): boolean {
  if (shape.kind === 'uuid') return true;
  if (shape.kind !== 'chars') return false;
  return new Set(shape.alphabet.toLowerCase()).size === new Set(shape.alphabet).size;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const JWT = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]*)$/;

function commonPrefix(values: readonly string[]): string {
  let p = values[0] ?? '';
  for (const v of values) while (!v.startsWith(p)) p = p.slice(0, -1);
  return p;
}

function commonSuffix(values: readonly string[]): string {
  let s = values[0] ?? '';
  for (const v of values) while (!v.endsWith(s)) s = s.slice(1);
  return s;
}

/** What a set of tokens shows of their shape, and the length range seen (for the profile). */
export interface LearnedShape {
  readonly shape: TokenShape;
  readonly lengths: { readonly min: number; readonly max: number };
  /** Tokens the shape was read from. */
  readonly samples: number;
}

/**
 * The shape of `tokens` (at least one): a UUID, a JWT (its header part kept when every token has the same one), or a
 * fixed prefix and suffix around characters of the smallest known alphabet that holds them. With one token only, a
 * prefix and suffix cannot be told from the random part: none is read.
 */
export function learnShape(tokens: readonly string[]): LearnedShape | undefined {
  if (tokens.length === 0) return undefined;
  const lengths = { min: Math.min(...tokens.map((t) => t.length)), max: Math.max(...tokens.map((t) => t.length)) };
  const median = [...tokens].map((t) => t.length).sort((a, b) => a - b)[Math.floor(tokens.length / 2)] ?? lengths.max;
  if (tokens.every((t) => UUID.test(t))) return { shape: { kind: 'uuid' }, lengths, samples: tokens.length };
  const jwts = tokens.map((t) => JWT.exec(t));
  if (jwts.every((m) => m !== null) && new Set(jwts.map((m) => m![1])).size === 1) {
    const m = jwts[0]!;
    return { shape: { kind: 'jwt', header: m[1]!, payloadLength: m[2]!.length, signatureLength: m[3]!.length }, lengths, samples: tokens.length };
  }
  // A prefix or suffix is read only where four tokens or more show it (fewer share one by chance too often), and
  // never eats the whole token.
  const prefix = tokens.length >= 4 ? commonPrefix(tokens).slice(0, Math.max(0, lengths.min - 2)) : '';
  const room = Math.max(0, lengths.min - prefix.length - 2);
  const common = tokens.length >= 4 ? commonSuffix(tokens.map((t) => t.slice(prefix.length))) : '';
  const suffix = common.length > room ? common.slice(common.length - room) : common;
  const middle = new Set(tokens.flatMap((t) => [...t.slice(prefix.length, t.length - suffix.length)]));
  const alphabet = ALPHABETS.find((a) => [...middle].every((c) => a.includes(c))) ?? [...middle].sort().join('');
  return { shape: { kind: 'chars', prefix, suffix, alphabet, length: median }, lengths, samples: tokens.length };
}
