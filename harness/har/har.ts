/**
 * HAR 1.2 (HTTP Archive: browser devtools, mitmproxy and Charles export it) to and from the recorded exchanges the
 * judge reads. Which environment an entry went to is told by its origin: the environments of a target config, else
 * the public addresses of the service; which protocol, by the SOAP address or an envelope in the body.
 * @see http://www.softwareishard.com/blog/har-12-spec/
 */
import { ENVIRONMENTS, environments as publicEnvironments, type Environment } from '../spec/index.ts';
import type { EnvironmentEndpoints } from '../targets/index.ts';
import type { ObservedExchange } from '../observe/exchange.ts';

export type HarErrorCode = 'HAR_NOT_JSON' | 'HAR_INVALID';

/** A file that is not a HAR 1.2 document; the message says what is wrong. */
export class HarError extends Error {
  readonly code: HarErrorCode;
  constructor(code: HarErrorCode, message: string) {
    super(message);
    this.name = 'HarError';
    this.code = code;
  }
}

interface HarHeader {
  readonly name: string;
  readonly value: string;
}

export interface HarEntry {
  readonly startedDateTime: string;
  readonly time: number;
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly httpVersion: string;
    readonly headers: readonly HarHeader[];
    readonly queryString: readonly HarHeader[];
    readonly cookies: readonly unknown[];
    readonly headersSize: number;
    readonly bodySize: number;
    readonly postData?: { readonly mimeType: string; readonly text: string };
  };
  readonly response: {
    readonly status: number;
    readonly statusText: string;
    readonly httpVersion: string;
    readonly headers: readonly HarHeader[];
    readonly cookies: readonly unknown[];
    readonly content: { readonly size: number; readonly mimeType: string; readonly text?: string; readonly encoding?: string };
    readonly redirectURL: string;
    readonly headersSize: number;
    readonly bodySize: number;
  };
  readonly cache: Record<string, never>;
  readonly timings: { readonly send: number; readonly wait: number; readonly receive: number };
}

export interface Har {
  readonly log: { readonly version: string; readonly creator: { readonly name: string; readonly version: string }; readonly entries: readonly HarEntry[] };
}

export interface HarReadOptions {
  /** The environments' addresses (a target config's); the service's public addresses are always known. */
  readonly environments?: Readonly<Partial<Record<Environment, EnvironmentEndpoints>>>;
}

const origin = (url: string): string | undefined => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

/** Origins of each environment's REST and SOAP addresses: the declared ones, then the public ones. */
function originTable(declared: HarReadOptions['environments']): { rest: Map<string, Environment>; soap: Map<string, Environment> } {
  const rest = new Map<string, Environment>();
  const soap = new Map<string, Environment>();
  for (const env of ENVIRONMENTS) {
    const d = declared?.[env];
    for (const [map, url] of [[rest, d?.restBaseUrl], [soap, d?.soapUrl], [rest, publicEnvironments[env].publicRestBaseUrl], [soap, publicEnvironments[env].publicSoapUrl]] as const) {
      const o = url ? origin(url) : undefined;
      if (o && !map.has(o)) map.set(o, env);
    }
  }
  return { rest, soap };
}

const isEnvelope = (body: string) => /^\s*(?:<\?xml[^>]*\?>\s*)?<([\w.-]+:)?Envelope\b/.test(body);

function text(value: unknown, where: string): string {
  if (typeof value !== 'string') throw new HarError('HAR_INVALID', `${where} is not a string: the file is not a HAR 1.2 document`);
  return value;
}

function headers(list: unknown, where: string): Record<string, string> {
  if (!Array.isArray(list)) throw new HarError('HAR_INVALID', `${where} is not a list of headers: the file is not a HAR 1.2 document`);
  const out: Record<string, string> = {};
  for (const h of list as { name?: unknown; value?: unknown }[]) {
    const name = text(h?.name, `a header name in ${where}`).toLowerCase();
    // HTTP/2 pseudo-headers (":authority", …) are not headers of the request.
    if (name.startsWith(':')) continue;
    const value = text(h?.value, `the value of header ${name} in ${where}`);
    out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
  }
  return out;
}

function content(c: { text?: unknown; encoding?: unknown } | undefined): string {
  if (typeof c?.text !== 'string') return '';
  return c.encoding === 'base64' ? Buffer.from(c.text, 'base64').toString('utf8') : c.text;
}

/**
 * Reads a HAR 1.2 document into exchanges, in the order the requests started.
 * @throws {HarError} when the text is not JSON or not a HAR document.
 */
export function readHar(json: string, options: HarReadOptions = {}): ObservedExchange[] {
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch (err) {
    throw new HarError('HAR_NOT_JSON', `the file is not JSON (${(err as Error).message}): export a HAR file ("Save all as HAR" in browser devtools, mitmproxy's "har" export, Charles' "HTTP Archive")`);
  }
  const entries = (doc as { log?: { entries?: unknown } })?.log?.entries;
  if (!Array.isArray(entries)) throw new HarError('HAR_INVALID', 'the file has no log.entries: it is not a HAR 1.2 document');
  const table = originTable(options.environments);
  const out: ObservedExchange[] = [];
  for (const [i, raw] of (entries as Record<string, unknown>[]).entries()) {
    const where = `log.entries[${i}]`;
    const req = raw?.request as Record<string, unknown> | undefined;
    const res = raw?.response as Record<string, unknown> | undefined;
    if (!req || typeof req !== 'object') throw new HarError('HAR_INVALID', `${where} has no request: the file is not a HAR 1.2 document`);
    const url = text(req.url, `${where}.request.url`);
    const started = Date.parse(text(raw.startedDateTime, `${where}.startedDateTime`));
    if (!Number.isFinite(started)) throw new HarError('HAR_INVALID', `${where}.startedDateTime is not a date`);
    const time = typeof raw.time === 'number' && raw.time >= 0 ? raw.time : 0;
    const body = typeof (req.postData as { text?: unknown } | undefined)?.text === 'string' ? (req.postData as { text: string }).text : '';
    const o = origin(url);
    let path: string;
    try {
      path = new URL(url).pathname;
    } catch {
      throw new HarError('HAR_INVALID', `${where}.request.url is not a URL`);
    }
    const soap = (o !== undefined && table.soap.has(o)) || isEnvelope(body);
    const env = o === undefined ? undefined : soap ? (table.soap.get(o) ?? table.rest.get(o)) : (table.rest.get(o) ?? table.soap.get(o));
    // A response with status 0 (devtools: blocked, failed) got no answer.
    const status = typeof res?.status === 'number' ? res.status : 0;
    out.push({
      seq: i + 1,
      env,
      protocol: soap ? 'soap' : 'rest',
      startedAt: started,
      endedAt: started + time,
      request: { method: text(req.method, `${where}.request.method`), url, path, headers: headers(req.headers, `${where}.request.headers`), body },
      response: status > 0 ? { status, headers: headers(res?.headers ?? [], `${where}.response.headers`), body: content(res?.content as { text?: unknown; encoding?: unknown } | undefined) } : undefined,
      ...(status > 0 ? {} : { error: 'no answer recorded' }),
    });
  }
  return out;
}

/** Writes exchanges as a HAR 1.2 document (what `readHar` reads back). Holds whatever the exchanges hold: redact first. */
export function writeHar(exchanges: readonly ObservedExchange[], creator: { name: string; version: string }): Har {
  const list = (h: Readonly<Record<string, string>>) => Object.entries(h).map(([name, value]) => ({ name, value }));
  return {
    log: {
      version: '1.2',
      creator,
      entries: exchanges.map((x): HarEntry => ({
        startedDateTime: new Date(x.startedAt).toISOString(),
        time: Math.max(0, x.endedAt - x.startedAt),
        request: {
          method: x.request.method, url: x.request.url, httpVersion: 'HTTP/1.1', headers: list(x.request.headers), queryString: [], cookies: [], headersSize: -1,
          bodySize: Buffer.byteLength(x.request.body),
          ...(x.request.body !== '' && { postData: { mimeType: x.request.headers['content-type'] ?? '', text: x.request.body } }),
        },
        response: {
          status: x.response?.status ?? 0, statusText: '', httpVersion: 'HTTP/1.1', headers: list(x.response?.headers ?? {}), cookies: [],
          content: { size: Buffer.byteLength(x.response?.body ?? ''), mimeType: x.response?.headers['content-type'] ?? '', text: x.response?.body ?? '' },
          redirectURL: '', headersSize: -1, bodySize: Buffer.byteLength(x.response?.body ?? ''),
        },
        cache: {},
        timings: { send: 0, wait: Math.max(0, x.endedAt - x.startedAt), receive: 0 },
      })),
    },
  };
}
