import fc from 'fast-check';
import { encodeBase64Utf8, encodeCredentials, encodeRestCredentials } from '../../../harness/credentials/index.ts';
import type { Account } from '../../../harness/targets/index.ts';

/** Characters the interface's encoding must carry through: `:`, `+`, `/`, `=`, spaces, non-ASCII. */
const tricky = fc.constantFrom(':', '+', '/', '=', ' ', 'é', 'ß', 'Ω', '中', '🙂', 'a:b', '==', '+/+');
const plain = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter((s) => s.trim() === s);

/** Text with at least one of the tricky characters somewhere in it. */
export const trickyText = fc
  .tuple(fc.string({ unit: 'grapheme-ascii', maxLength: 6 }), tricky, fc.string({ unit: 'grapheme', maxLength: 6 }))
  .map(([a, t, b]) => `${a}${t}${b}`);

/** An account with a user ID and password that exercise the encoding (CRED-03). */
export const accountArbitrary = fc.record({
  epr: fc.oneof(trickyText, plain).filter((s) => s.length > 0),
  pcc: fc.stringMatching(/^[A-Z0-9]{3,5}$/),
  password: fc.oneof(trickyText, plain),
});

/** A secret that differs from `password`. */
export const wrongSecret = (password: string) =>
  fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }), trickyText, fc.constant(`${password}x`), fc.constant(password.toUpperCase() + '1'))
    .filter((s) => s !== password && s.length > 0);

/** What is wrong with a malformed Authorization header (ERR-01). */
export type MalformedKind =
  | 'missing'
  | 'other-scheme'
  | 'single-base64'
  | 'no-colon'
  | 'broken-outer-base64'
  | 'broken-inner-base64'
  | 'client-id-form';

export interface Malformed {
  readonly kind: MalformedKind;
  /** `null`: no Authorization header at all. */
  readonly header: string | null;
}

const BAD_BASE64 = fc.constantFrom('*', '!', '%', '~', '?', '$');

/** Malformed Authorization headers built from the real account, so only the syntax is wrong. */
export function malformedAuthorization(account: Account): fc.Arbitrary<Malformed> {
  const clientId = `V1:${account.epr}:${account.pcc}:${account.restDomain}`;
  const good = encodeRestCredentials({ userid: account.epr, group: account.pcc, domain: account.restDomain, password: account.password });
  return fc.oneof(
    fc.constant<Malformed>({ kind: 'missing', header: null }),
    fc.constantFrom('Bearer', 'Digest', 'Negotiate', 'Token', 'Basic64').map((scheme): Malformed => ({ kind: 'other-scheme', header: `${scheme} ${good}` })),
    fc.constant<Malformed>({ kind: 'single-base64', header: `Basic ${encodeBase64Utf8(`${clientId}:${account.password}`)}` }),
    fc.constant<Malformed>({ kind: 'single-base64', header: `Basic ${encodeBase64Utf8(clientId)}:${encodeBase64Utf8(account.password)}` }),
    fc.constant<Malformed>({ kind: 'no-colon', header: `Basic ${encodeBase64Utf8(`${encodeBase64Utf8(clientId)}${encodeBase64Utf8(account.password)}`)}` }),
    fc.tuple(fc.nat({ max: good.length - 1 }), BAD_BASE64).map(([i, c]): Malformed => ({ kind: 'broken-outer-base64', header: `Basic ${good.slice(0, i)}${c}${good.slice(i + 1)}` })),
    fc.tuple(fc.boolean(), BAD_BASE64).map(([inId, c]): Malformed => {
      const id = encodeBase64Utf8(clientId);
      const pw = encodeBase64Utf8(account.password);
      const inner = inId ? `${c}${id.slice(1)}:${pw}` : `${id}:${c}${pw.slice(1)}`;
      return { kind: 'broken-inner-base64', header: `Basic ${encodeBase64Utf8(inner)}` };
    }),
    fc.constantFrom(
      `V2:${account.epr}:${account.pcc}:${account.restDomain}`,
      `${account.epr}:${account.pcc}:${account.restDomain}`,
      `V1:${account.epr}:${account.pcc}`,
      `V1::${account.pcc}:${account.restDomain}`,
      `V1:${account.epr}::${account.restDomain}`,
      `V1:${account.epr}:${account.pcc}:`,
      `v1:${account.epr}:${account.pcc}:${account.restDomain}`,
    ).map((id): Malformed => ({ kind: 'client-id-form', header: `Basic ${encodeCredentials(id, account.password)}` })),
  );
}

/** A grant_type that is not `client_credentials`. */
export const wrongGrantType = fc.oneof(
  fc.constantFrom('password', 'authorization_code', 'refresh_token', 'Client_Credentials', 'client_credential', ''),
  fc.string({ minLength: 1, maxLength: 16 }),
).filter((g) => g !== 'client_credentials');
