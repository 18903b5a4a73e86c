import { envelopeExcerpt } from '../soap/index.ts';
import type { HttpRequest, HttpResponse, Transport } from '../targets/index.ts';
import { registerSecret } from './secrets.ts';

/** One request and what came of it, kept for a failure's evidence. */
export interface Exchange {
  readonly request: HttpRequest;
  readonly response?: HttpResponse;
  readonly error?: string;
}

const MAX_BODY = 600;

/** A body as evidence: SOAP envelopes as their masked MessageHeader and Body, anything else clipped. */
function clip(text: string): string {
  if (/^\s*(?:<\?xml[^>]*\?>\s*)?<[A-Za-z_][\w.-]*:Envelope\b/.test(text)) {
    const header = envelopeExcerpt(text, { element: 'MessageHeader', maxLength: 900 });
    const body = envelopeExcerpt(text, { element: 'Body', maxLength: 700 });
    if (header || body) return [header, body].filter(Boolean).join('\n  ');
  }
  return text.length > MAX_BODY ? `${text.slice(0, MAX_BODY)}… (${text.length} chars)` : text;
}

/** Formats an exchange as a report shows it (before redaction, which the caller applies). */
export function formatExchange(x: Exchange): string {
  const url = new URL(x.request.url);
  const reqHeaders = Object.entries(x.request.headers ?? {}).map(([k, v]) => `${k}: ${v}`);
  const lines = [`> ${x.request.method} ${url.pathname}${url.search}`, ...reqHeaders.map((h) => `> ${h}`)];
  if (x.request.body) lines.push(`> ${clip(x.request.body)}`);
  if (x.response) {
    lines.push(`< ${x.response.status}`, ...Object.entries(x.response.headers).filter(([k]) => k === 'content-type').map(([k, v]) => `< ${k}: ${v}`));
    if (x.response.body) lines.push(`< ${clip(x.response.body)}`);
  } else if (x.error) {
    lines.push(`< (no answer: ${x.error})`);
  }
  return lines.join('\n');
}

/** Registers the tokens an answer carries as secrets, whatever shape it has. */
export function registerTokensIn(body: string): void {
  if (body.startsWith('{')) {
    try {
      const value = JSON.parse(body) as Record<string, unknown>;
      if (typeof value.access_token === 'string') registerSecret(value.access_token);
    } catch {
      // not JSON after all
    }
  }
  for (const m of body.matchAll(/BinarySecurityToken[^>]*>([^<]+)</g)) registerSecret(m[1]);
}

/** A transport that remembers the last exchanges of a check and registers every token it sees as a secret. */
export function recordingTransport(inner: Transport, log: Exchange[], keep = 4): Transport {
  return {
    async request(req) {
      try {
        const response = await inner.request(req);
        registerTokensIn(response.body);
        log.push({ request: req, response });
        return response;
      } catch (err) {
        log.push({ request: req, error: (err as Error).message });
        throw err;
      } finally {
        if (log.length > keep) log.splice(0, log.length - keep);
      }
    },
    close: () => inner.close(),
  };
}
