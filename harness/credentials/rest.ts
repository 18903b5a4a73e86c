import { CLIENT_ID_VERSION, DEFAULT_REST_DOMAIN } from '../catalog/index.ts';
import { decodeBase64Utf8, encodeBase64Utf8 } from './base64.ts';

/** The parts of a REST Client ID, `V1:<userid>:<group>:<domain>`. */
export interface ClientIdParts {
  /** The user ID of the account (the EPR). */
  readonly userid: string;
  /** The group: the PCC/iPCC (or organization). */
  readonly group: string;
  /** The REST domain; `AA` where the default domain is used. */
  readonly domain: string;
}

export interface RestCredentials extends ClientIdParts {
  readonly password: string;
}

/** Step 1: `V1:<userid>:<group>:<domain>`, colon-joined. */
export function buildClientId(parts: ClientIdParts): string {
  return [CLIENT_ID_VERSION, parts.userid, parts.group, parts.domain].join(':');
}

/**
 * Steps 2 and 3: base64( base64(ClientID) + ":" + base64(password) ), UTF-8 throughout.
 * @see ../../../shared/seeds/000_ca26362ee6021ee2.txt "Rules for the REST token request"
 */
export function encodeCredentials(clientId: string, password: string): string {
  return encodeBase64Utf8(`${encodeBase64Utf8(clientId)}:${encodeBase64Utf8(password)}`);
}

/** The whole encoding for an account: the value after `Basic ` in the Authorization header. */
export function encodeRestCredentials(credentials: RestCredentials): string {
  return encodeCredentials(buildClientId(credentials), credentials.password);
}

/** `Authorization` header value for the token request (step 4). */
export function basicAuthorization(credentials: RestCredentials): string {
  return `Basic ${encodeRestCredentials(credentials)}`;
}

export type CredentialSyntaxCode =
  | 'missing'
  | 'not-basic'
  | 'outer-base64'
  | 'no-colon'
  | 'client-id-base64'
  | 'password-base64'
  | 'client-id-form';

export type DecodedCredentials =
  | { readonly ok: true; readonly clientId: string; readonly password: string; readonly parts: ClientIdParts }
  | { readonly ok: false; readonly code: CredentialSyntaxCode; readonly reason: string };

const fail = (code: CredentialSyntaxCode, reason: string): { ok: false; code: CredentialSyntaxCode; reason: string } => ({ ok: false, code, reason });

/**
 * Parses a Client ID of the form `V1:<userid>:<group>:<domain>`. Group and domain are the last two fields, so a
 * user ID may itself contain `:`. `undefined` when the form is wrong or a field is empty.
 */
export function parseClientId(clientId: string): ClientIdParts | undefined {
  const fields = clientId.split(':');
  if (fields.length < 4 || fields[0] !== CLIENT_ID_VERSION) return undefined;
  const domain = fields.at(-1) ?? '';
  const group = fields.at(-2) ?? '';
  const userid = fields.slice(1, -2).join(':');
  if (!userid || !group || !domain) return undefined;
  return { userid, group, domain };
}

export type DecodedLayers =
  | { readonly ok: true; readonly clientId: string; readonly password: string }
  | { readonly ok: false; readonly code: CredentialSyntaxCode; readonly reason: string };

/** Undoes steps 2 and 3: strict base64 at both layers, one colon between the encoded Client ID and password. */
export function decodeCredentials(encoded: string): DecodedLayers {
  const outer = decodeBase64Utf8(encoded);
  if (outer === undefined) return fail('outer-base64', 'the credentials are not base64 of UTF-8 text');
  const colon = outer.indexOf(':');
  if (colon < 0) return fail('no-colon', 'the decoded credentials hold no ":" between Client ID and secret');
  const clientId = decodeBase64Utf8(outer.slice(0, colon));
  if (clientId === undefined) return fail('client-id-base64', 'the encoded Client ID is not base64 of UTF-8 text');
  const password = decodeBase64Utf8(outer.slice(colon + 1));
  if (password === undefined) return fail('password-base64', 'the encoded client secret is not base64 of UTF-8 text');
  return { ok: true, clientId, password };
}

/**
 * Decodes an `Authorization` header value (or `undefined` for a missing header) the way the service must:
 * Basic scheme, strict base64 at both layers, one colon between the encoded Client ID and the encoded password,
 * and a Client ID of the form `V1:…:…:…`.
 */
export function decodeAuthorization(header: string | null | undefined): DecodedCredentials {
  if (header === undefined || header === null || header.trim() === '') return fail('missing', 'no Authorization header');
  const match = /^Basic +(\S*)\s*$/i.exec(header);
  if (!match) return fail('not-basic', 'the Authorization scheme is not Basic');
  const layers = decodeCredentials(match[1] ?? '');
  if (!layers.ok) return layers;
  const parts = parseClientId(layers.clientId);
  if (!parts) return fail('client-id-form', `the Client ID is not of the form ${CLIENT_ID_VERSION}:<userid>:<group>:<domain>`);
  return { ok: true, clientId: layers.clientId, password: layers.password, parts };
}

/** Client ID parts for an account, using the default domain `AA` when none is configured (CRED-04). */
export function clientIdFor(account: { epr: string; pcc: string; restDomain?: string | undefined }): ClientIdParts {
  return { userid: account.epr, group: account.pcc, domain: account.restDomain || DEFAULT_REST_DOMAIN };
}
