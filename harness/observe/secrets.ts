import { decodeAuthorization } from '../credentials/index.ts';
import type { Redactor } from '../report/index.ts';
import type { ObservedExchange } from './exchange.ts';

/**
 * Registers every secret an exchange carries with the redactor, as it is recorded: the password inside Basic
 * credentials (and the credentials whole), bearer tokens, UsernameToken passwords, BinarySecurityTokens and
 * `access_token` values. Whatever is written afterwards (reports, evidence, messages) is redacted by value.
 */
export function registerSecretsOf(x: ObservedExchange, redactor: Redactor): void {
  const auth = x.request.headers.authorization;
  if (auth) {
    const value = auth.replace(/^\s*\S+\s*/, '');
    redactor.add(value.trim());
    const decoded = decodeAuthorization(auth);
    if (decoded.ok) redactor.addPassword(decoded.password);
    const bearer = /^\s*bearer\s*(\S+)/i.exec(auth)?.[1];
    if (bearer) redactor.add(bearer);
  }
  for (const body of [x.request.body, x.response?.body ?? '']) {
    for (const m of body.matchAll(/BinarySecurityToken[^>]*>([^<]+)</g)) redactor.add(unescapeXml((m[1] ?? '').trim()));
    for (const m of body.matchAll(/<(?:[\w.-]+:)?Password[^>]*>([^<]*)</g)) redactor.add(unescapeXml(m[1] ?? ''));
    for (const m of body.matchAll(/"access_token"\s*:\s*"([^"]+)"/g)) redactor.add(m[1] ?? '');
  }
}

/**
 * Registers the credentials an exchange carries, as it is recorded: the password inside Basic credentials (and the
 * credentials whole) and UsernameToken passwords. Few, whatever the length of the traffic (an application has few
 * passwords); its tokens, one per session, are registered when an exchange is cited in a report
 * ({@link registerSecretsOf}).
 */
export function registerCredentialsOf(x: ObservedExchange, redactor: Redactor): void {
  const auth = x.request.headers.authorization;
  if (auth && /^\s*basic\b/i.test(auth)) {
    redactor.add(auth.replace(/^\s*\S+\s*/, '').trim());
    const decoded = decodeAuthorization(auth);
    if (decoded.ok) redactor.addPassword(decoded.password);
  }
  if (x.protocol === 'soap') {
    for (const m of x.request.body.matchAll(/<(?:[\w.-]+:)?Password[^>]*>([^<]*)</g)) redactor.add(unescapeXml(m[1] ?? ''));
  }
}

/** The text of an XML element as its value (the five predefined entities and character references). */
function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_m, e: string) => {
    const lower = e.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(parseInt(lower.slice(1), 10));
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[lower] ?? _m;
  });
}
