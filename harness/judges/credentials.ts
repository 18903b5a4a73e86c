import { CLIENT_ID_VERSION, DEFAULT_REST_DOMAIN } from '../catalog/index.ts';
import { decodeBase64Utf8, decodeCredentials } from '../credentials/index.ts';
import { problem, type Problem } from './problem.ts';

/** `Authorization: Basic <ENCODED_CREDENTIALS>`: the scheme as the document writes it, one space, one token. */
const BASIC = /^Basic (\S+)$/;

/** What CRED-02 finds in a client's token request header: a problem, or the Client ID and secret it carries. */
export type Cred02Reading =
  | { readonly ok: true; readonly clientId: string; readonly password: string }
  /** `clientId`: the inner layer's first half decoded, though the rest did not (CRED-01 is judged on it all the same). */
  | { readonly ok: false; readonly problem: Problem; readonly clientId?: string };

/**
 * CRED-02 on one token request's Authorization header: `Basic` (one space), then base64( base64(ClientID) ":"
 * base64(password) ) at both layers. The problem names the clause: the scheme, the outer or the inner layer.
 * `password`, where it is known (a driven client's account; traffic shows only what was sent): the secret the inner
 * layer must carry.
 */
export function readCred02(header: string | undefined, password?: string): Cred02Reading {
  const match = BASIC.exec(header ?? '');
  if (!match) {
    // The Client ID of credentials sent with the scheme in another case or spacing is still read: CRED-01 judges it
    // (one deviation, one rule).
    const loose = /^basic\s+(\S+)\s*$/i.exec(header ?? '');
    const layers = loose ? decodeCredentials(loose[1]!) : undefined;
    return {
      ok: false,
      problem: problem('CRED-02.basic-scheme', 'the token request does not carry "Authorization: Basic <ENCODED_CREDENTIALS>"', 'Basic <ENCODED_CREDENTIALS>', header === undefined ? '(no header)' : header.replace(/\s.*$/, ' …')),
      ...(layers?.ok && { clientId: layers.clientId }),
    };
  }
  const layers = decodeCredentials(match[1]!);
  if (!layers.ok) {
    const clause = layers.code === 'outer-base64' ? 'CRED-02.outer-layer' : 'CRED-02.inner-layer';
    const broken = problem(clause, 'the credentials are not base64( base64(ClientID) ":" base64(password) )', 'two layers of base64 (UTF-8)', layers.reason);
    return { ok: false, problem: broken, ...(layers.code === 'password-base64' && { clientId: clientIdHalf(match[1]!) }) };
  }
  if (password !== undefined && layers.password !== password) {
    return { ok: false, problem: problem('CRED-02.inner-layer', 'the decoded client secret is not the password', 'base64(password) in the inner layer', 'another secret'), clientId: layers.clientId };
  }
  return { ok: true, clientId: layers.clientId, password: layers.password };
}

/** The Client ID of credentials whose first inner half decodes (their secret half does not). */
function clientIdHalf(encoded: string): string | undefined {
  const outer = decodeBase64Utf8(encoded) ?? '';
  const colon = outer.indexOf(':');
  return colon > 0 ? decodeBase64Utf8(outer.slice(0, colon)) : undefined;
}

/**
 * The account a Client ID must name: its EPR and PCC, and its REST domain when one is configured (`undefined`: none
 * is, and any domain passes CRED-01.fields: CRED-04 judges the default).
 */
export interface ClientIdAccount {
  readonly epr: string;
  readonly pcc: string;
  readonly restDomain?: string | undefined;
  /** "group: …; the values iPCC or organization are also accepted for this element" (the target config's `groupAlternatives`). */
  readonly groupAlternatives?: readonly string[] | undefined;
}

/** How a judge shows a Client ID or a part of it: as is, unless a side masks the account's values. */
export type ShowClientId = (text: string) => string;

const asIs: ShowClientId = (text) => text;

/**
 * CRED-01 on a decoded Client ID: the literal V1 first (CRED-01.v1-literal) and, with the `account` known,
 * `V1:<EPR>:<PCC>:<domain>` of that account (CRED-01.fields). Every problem, in clause order.
 */
export function cred01Problems(clientId: string, account?: ClientIdAccount, show: ShowClientId = asIs): Problem[] {
  const out: Problem[] = [];
  if (clientId.split(':')[0] !== CLIENT_ID_VERSION) out.push(problem('CRED-01.v1-literal', 'the Client ID does not start with the literal V1', 'V1:<userid>:<group>:<domain>', show(clientId)));
  if (account) {
    const prefix = `${CLIENT_ID_VERSION}:${account.epr}:${account.pcc}:`;
    const fitsGroup = (group: string) => {
      const p = `${CLIENT_ID_VERSION}:${account.epr}:${group}:`;
      return account.restDomain === undefined ? clientId.startsWith(p) && !clientId.slice(p.length).includes(':') : clientId === `${p}${account.restDomain}`;
    };
    const fits = [account.pcc, ...(account.groupAlternatives ?? [])].some(fitsGroup);
    if (!fits) out.push(problem('CRED-01.fields', 'the Client ID is not V1:<EPR>:<PCC>:<domain> of the account', account.restDomain === undefined ? `${show(prefix)}<domain>` : show(`${prefix}${account.restDomain}`), show(clientId)));
  } else if (clientId.split(':').length < 4) {
    // Whoever's it is, a Client ID has its four fields (a user ID may hold ":", so never fewer).
    out.push(problem('CRED-01.fields', 'the Client ID has fewer than the four fields V1:<userid>:<group>:<domain>', 'V1:<userid>:<group>:<domain>', show(clientId)));
  }
  return out;
}

/** CRED-04 on the Client ID of an account with no REST domain configured: its domain (the last field) is `AA`. */
export function cred04Problem(clientId: string, show: ShowClientId = asIs): Problem | undefined {
  const domain = clientId.split(':').at(-1) ?? '';
  return domain === DEFAULT_REST_DOMAIN ? undefined : problem('CRED-04.default-domain', 'with no domain configured, the Client ID does not use the default domain AA', DEFAULT_REST_DOMAIN, show(domain));
}

/**
 * CRED-02.inner-layer on a token request whose secret is the password of another environment's account
 * (`passwordOf`), not of the account of the environment it was sent to (`sentTo`): "A token must be requested from
 * the environment it is used in", with that environment's credentials.
 */
export function cred02OtherEnvironmentProblem(sentTo: string, passwordOf: string | undefined): Problem | undefined {
  if (passwordOf === undefined) return undefined;
  return problem('CRED-02.inner-layer', `the decoded client secret of a token request to ${sentTo.toUpperCase()} is the password of ${passwordOf.toUpperCase()}'s account`, `the password of ${sentTo.toUpperCase()}'s account`, `${passwordOf.toUpperCase()}'s password`);
}
