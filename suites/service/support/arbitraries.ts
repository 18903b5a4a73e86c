import fc from 'fast-check';
import { encodeBase64Utf8, encodeCredentials, encodeRestCredentials } from '../../../harness/credentials/index.ts';
import type { Account } from '../../../harness/targets/index.ts';
import { stringArbitrary, stringMatchingArbitrary } from '../../../harness/checks/string-arbitrary.ts';

/** Characters the interface's encoding must carry through: `:`, `+`, `/`, `=`, spaces, non-ASCII. */
const tricky = fc.constantFrom(':', '+', '/', '=', ' ', 'é', 'ß', 'Ω', '中', '🙂', 'a:b', '==', '+/+');
const plain = stringArbitrary({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter((s) => s.trim() === s);

/** Text with at least one of the tricky characters somewhere in it. */
export const trickyText = fc
  .tuple(stringArbitrary({ unit: 'grapheme-ascii', maxLength: 6 }), tricky, stringArbitrary({ unit: 'grapheme', maxLength: 6 }))
  .map(([a, t, b]) => `${a}${t}${b}`);

/** An account with a user ID and password that exercise the encoding (CRED-03). */
export const accountArbitrary = fc.record({
  epr: fc.oneof(trickyText, plain).filter((s) => s.length > 0),
  pcc: stringMatchingArbitrary(/^[A-Z0-9]{3,5}$/),
  password: fc.oneof(trickyText, plain),
});

/** A secret that differs from `password`. */
export const wrongSecret = (password: string) =>
  fc.oneof(stringArbitrary({ unit: 'grapheme', minLength: 1, maxLength: 20 }), trickyText, fc.constant(`${password}x`), fc.constant(password.toUpperCase() + '1'))
    .filter((s) => s !== password && s.length > 0);

/**
 * What is wrong with a malformed Authorization header (ERR-01), one kind per clause. Only what the document makes
 * clearly wrong is generated: a lower-case `v1:`, `V2:` or an empty field are not (the document does not call them
 * malformed: a service may read them as an unknown client ID), and neither is base64 without padding.
 */
export type MalformedKind = 'missing' | 'other-scheme' | 'bad-base64' | 'no-colon' | 'client-id-form';

export interface Malformed {
  readonly kind: MalformedKind;
  /** What exactly, for the evidence. */
  readonly label: string;
  /** `null`: no Authorization header at all. */
  readonly header: string | null;
}

/** Characters no base64 alphabet has. */
const BAD_BASE64 = fc.constantFrom('*', '!', '%', '~', '?', '$', '#');

/** Replaces a character inside a base64 text (not within its last four, where padding goes) by one that is not base64. */
function breakBase64(text: string, at: number, bad: string): string {
  const i = at % Math.max(1, text.length - 4);
  return `${text.slice(0, i)}${bad}${text.slice(i + 1)}`;
}

/**
 * Malformed Authorization headers built from the real account, so only the syntax is wrong: every fixed case each
 * time (so each clause of ERR-01 is exercised on every run), plus generated ones (another scheme, a character that is
 * not base64 somewhere in either layer, a Client ID with too few fields).
 */
export function malformedAuthorizations(account: Account): fc.Arbitrary<readonly Malformed[]> {
  const clientId = `V1:${account.epr}:${account.pcc}:${account.restDomain}`;
  const id64 = encodeBase64Utf8(clientId);
  const pw64 = encodeBase64Utf8(account.password);
  const good = encodeRestCredentials({ userid: account.epr, group: account.pcc, domain: account.restDomain, password: account.password });
  const fixed: readonly Malformed[] = [
    { kind: 'missing', label: 'no Authorization header', header: null },
    { kind: 'bad-base64', label: 'one layer of base64 over "ClientID:password"', header: `Basic ${encodeBase64Utf8(`${clientId}:${account.password}`)}` },
    { kind: 'bad-base64', label: 'the inner layer only, without the outer one', header: `Basic ${id64}:${pw64}` },
    { kind: 'no-colon', label: 'no ":" between the encoded Client ID and password', header: `Basic ${encodeBase64Utf8(`${id64}${pw64}`)}` },
    // A character no base64 has, in the password's half of each layer: a decoder that skips it (as lenient ones do)
    // reads a wrong secret there, not a syntax error, whatever the seed draws below.
    { kind: 'bad-base64', label: 'a "*" in the outer layer, in the encoded password\'s part', header: `Basic ${breakBase64(good, good.length - 6, '*')}` },
    { kind: 'bad-base64', label: 'a "*" in the encoded password', header: `Basic ${encodeBase64Utf8(`${id64}:${breakBase64(pw64, 0, '*')}`)}` },
  ];
  return fc.tuple(
    fc.constantFrom('Bearer', 'Digest', 'Negotiate', 'Token').map((scheme): Malformed => ({ kind: 'other-scheme', label: `the scheme ${scheme}`, header: `${scheme} ${good}` })),
    fc.tuple(fc.nat(), BAD_BASE64).map(([i, c]): Malformed => ({ kind: 'bad-base64', label: `a "${c}" in the outer layer`, header: `Basic ${breakBase64(good, i, c)}` })),
    fc.tuple(fc.boolean(), fc.nat(), BAD_BASE64).map(([inId, i, c]): Malformed => {
      const inner = inId ? `${breakBase64(id64, i, c)}:${pw64}` : `${id64}:${breakBase64(pw64, i, c)}`;
      return { kind: 'bad-base64', label: `a "${c}" in the encoded ${inId ? 'Client ID' : 'password'}`, header: `Basic ${encodeBase64Utf8(inner)}` };
    }),
    fc.constantFrom(...clientIdFormCases(account)).map(({ label, id }): Malformed => ({ kind: 'client-id-form', label, header: `Basic ${encodeCredentials(id, account.password)}` })),
  ).map((generated) => [...fixed, ...generated]);
}

/**
 * Client IDs of the wrong form: fewer than the four fields, or no `V1:` first. A user ID may hold ":" (group and domain
 * are the last two fields), so a case is kept only if it is still of the wrong form with the account's own user ID:
 * `V1:a:b:PCC` (three fields meant, the user ID `a:b`) is a well-formed Client ID of an unknown client, whose
 * refusal ERR-02 describes, not ERR-01 (a blind service answered it so, and ERR-01 failed on the seeds that drew it).
 */
function clientIdFormCases(account: Account): { label: string; id: string }[] {
  const wrongForm = (id: string) => !id.startsWith('V1:') || id.split(':').length < 4;
  const cases = [
    { label: 'a Client ID of three fields (no domain)', id: `V1:${account.epr}:${account.pcc}` },
    { label: 'a Client ID of two fields', id: `V1:${account.epr}` },
    { label: 'a Client ID without any ":"', id: `V1${account.epr}${account.pcc}${account.restDomain}`.replaceAll(':', '') },
  ].filter((c) => wrongForm(c.id));
  return cases.length > 0 ? cases : [{ label: 'a Client ID of one field', id: 'V1' }];
}

/**
 * A grant_type that is clearly not `client_credentials`: other grant types, empty, and random text — never the value
 * in another case or with spaces around it, which a lenient service may accept.
 */
export const wrongGrantType = fc.oneof(
  fc.constantFrom('password', 'authorization_code', 'refresh_token', 'client_credential', ''),
  stringArbitrary({ minLength: 1, maxLength: 16 }),
).filter((g) => g.trim().toLowerCase().replace(/[\s_-]/g, '') !== 'clientcredentials');
