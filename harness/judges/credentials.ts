import { decodeCredentials } from '../credentials/index.ts';
import { problem, type Problem } from './problem.ts';

/** `Authorization: Basic <ENCODED_CREDENTIALS>`: the scheme as the document writes it, one space, one token. */
const BASIC = /^Basic (\S+)$/;

/** What CRED-02 finds in a client's token request header: a problem, or the Client ID and secret it carries. */
export type Cred02Reading =
  | { readonly ok: true; readonly clientId: string; readonly password: string }
  | { readonly ok: false; readonly problem: Problem };

/**
 * CRED-02 on one token request's Authorization header: `Basic` (one space), then base64( base64(ClientID) ":"
 * base64(password) ) at both layers. The problem names the clause: the scheme, the outer or the inner layer.
 */
export function readCred02(header: string | undefined): Cred02Reading {
  const match = BASIC.exec(header ?? '');
  if (!match) {
    return {
      ok: false,
      problem: problem('CRED-02.basic-scheme', 'the token request does not carry "Authorization: Basic <ENCODED_CREDENTIALS>"', 'Basic <ENCODED_CREDENTIALS>', header === undefined ? '(no header)' : header.replace(/\s.*$/, ' …')),
    };
  }
  const layers = decodeCredentials(match[1]!);
  if (!layers.ok) {
    const clause = layers.code === 'outer-base64' ? 'CRED-02.outer-layer' : 'CRED-02.inner-layer';
    return { ok: false, problem: problem(clause, 'the credentials are not base64( base64(ClientID) ":" base64(password) )', 'two layers of base64 (UTF-8)', layers.reason) };
  }
  return { ok: true, clientId: layers.clientId, password: layers.password };
}
