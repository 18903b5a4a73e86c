/**
 * HAR 1.2 (HTTP Archive: browser devtools, mitmproxy and Charles export it) to and from the recorded exchanges the
 * judge reads. Which environment an entry went to is told by its origin: the environments of a target config, else
 * the public addresses of the service; which protocol, by the SOAP address or an envelope in the body.
 * @see http://www.softwareishard.com/blog/har-12-spec/
 */
import { jsonErrorPlace } from '../json-error.ts';
import { ENVIRONMENTS, environments as publicEnvironments, type Environment } from '../catalog/index.ts';
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
function originTable(declared: HarReadOptions['environments']): { rest: Map<string, Environment>; soap: Map<string, Environment>; soapPaths: Map<string, string> } {
  const rest = new Map<string, Environment>();
  const soap = new Map<string, Environment>();
  /** The SOAP address's path, by origin: where REST and SOAP share an origin, the path tells them apart. */
  const soapPaths = new Map<string, string>();
  for (const env of ENVIRONMENTS) {
    const d = declared?.[env];
    for (const [map, url] of [[rest, d?.restBaseUrl], [soap, d?.soapUrl], [rest, publicEnvironments[env].publicRestBaseUrl], [soap, publicEnvironments[env].publicSoapUrl]] as const) {
      const o = url ? origin(url) : undefined;
      if (o && !map.has(o)) map.set(o, env);
      if (o && url && map === soap && !soapPaths.has(o)) soapPaths.set(o, new URL(url).pathname);
    }
  }
  return { rest, soap, soapPaths };
}

/** Whether a request went to the SOAP address: an envelope, or the SOAP origin (and, where REST shares it, the SOAP path). */
function isSoapRequest(table: ReturnType<typeof originTable>, o: string | undefined, path: string, body: string): boolean {
  if (isEnvelope(body)) return true;
  if (o === undefined || !table.soap.has(o)) return false;
  return !table.rest.has(o) || table.soapPaths.get(o) === path;
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

/**
 * A request body: `postData.text`, or (HAR 1.2 allows it instead, for a form) `postData.params` written back as the
 * form they were parsed from.
 */
function postData(p: unknown): string {
  const data = p as { text?: unknown; params?: unknown } | undefined;
  if (typeof data?.text === 'string') return data.text;
  if (!Array.isArray(data?.params)) return '';
  const form = new URLSearchParams();
  for (const param of data.params as { name?: unknown; value?: unknown }[]) {
    if (typeof param?.name === 'string') form.append(param.name, typeof param.value === 'string' ? param.value : '');
  }
  return form.toString();
}

/** An entry's duration when its `time` is missing or -1: the sum of the `timings` phases that are known (`ssl` is part of `connect`; 0 if none is known). */
function timingsTotal(timings: unknown): number {
  if (typeof timings !== 'object' || timings === null) return 0;
  return Object.entries(timings as Record<string, unknown>)
    .filter(([phase, ms]) => ['blocked', 'dns', 'connect', 'send', 'wait', 'receive'].includes(phase) && typeof ms === 'number' && ms >= 0)
    .reduce((sum, [, ms]) => sum + (ms as number), 0);
}

/** An answer: its body from `content.text`, or, when the HAR kept none of a body the service sent, marked missing. */
function answer(status: number, h: Record<string, string>, c: { text?: unknown; encoding?: unknown; size?: unknown } | undefined) {
  const sent = typeof c?.size === 'number' ? c.size > 0 : status !== 204 && status !== 304;
  return { status, headers: h, body: content(c), ...(typeof c?.text !== 'string' && sent && { bodyMissing: true as const }) };
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
    throw new HarError('HAR_NOT_JSON', `the file is not JSON (${jsonErrorPlace(json, err)}): export a HAR file ("Save all as HAR" in browser devtools, mitmproxy's "har" export, Charles' "HTTP Archive")`);
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
    const time = typeof raw.time === 'number' && raw.time >= 0 ? raw.time : timingsTotal(raw.timings);
    const body = postData(req.postData);
    const o = origin(url);
    let path: string;
    try {
      path = new URL(url).pathname;
    } catch {
      throw new HarError('HAR_INVALID', `${where}.request.url is not a URL`);
    }
    const soap = isSoapRequest(table, o, path, body);
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
      response: status > 0 ? answer(status, headers(res?.headers ?? [], `${where}.response.headers`), res?.content as { text?: unknown; encoding?: unknown; size?: unknown } | undefined) : undefined,
      ...(status > 0 ? {} : { error: 'no answer recorded' }),
    });
  }
  return out;
}

/** What a HAR entry is made of: a request, its answer (or the error instead), and when. */
export interface HarSource {
  readonly request: { readonly method: string; readonly url: string; readonly headers?: Readonly<Record<string, string>> | undefined; readonly body?: string | undefined };
  readonly response?: { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string } | undefined;
  /** Epoch ms. */
  readonly startedAt: number;
  readonly endedAt: number;
  /** Why no answer came (a time-out, a refused connection). */
  readonly error?: string | undefined;
}

/** A HAR entry of a conformance run: tagged (HAR's custom fields start with `_`) with the rule and check it served. */
export type TaggedHarEntry = HarEntry & {
  /** The request's correlation ID (see harness/checks/trace.ts). */
  readonly _correlationId: string;
  /** The rules of the check that sent it; none for requests outside any check. */
  readonly _rules: readonly string[];
  /** The check's full title. */
  readonly _check: string;
  readonly _error?: string;
};

const headerList = (h: Readonly<Record<string, string>>) => Object.entries(h).map(([name, value]) => ({ name, value }));

/** One HAR 1.2 entry. Holds whatever the exchange holds: redact first (or after, on its JSON text). */
export function harEntry(x: HarSource): HarEntry;
export function harEntry<T extends Record<`_${string}`, unknown>>(x: HarSource, tags: T): HarEntry & T;
export function harEntry(x: HarSource, tags: Record<string, unknown> = {}): HarEntry {
  const body = x.request.body ?? '';
  const headers = x.request.headers ?? {};
  const time = Math.max(0, x.endedAt - x.startedAt);
  let queryString: HarHeader[] = [];
  try {
    queryString = [...new URL(x.request.url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    // not a URL: no query string
  }
  const contentType = (h: Readonly<Record<string, string>>) => Object.entries(h).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  return {
    startedDateTime: new Date(x.startedAt).toISOString(),
    time,
    request: {
      method: x.request.method, url: x.request.url, httpVersion: 'HTTP/1.1', headers: headerList(headers), queryString, cookies: [], headersSize: -1,
      bodySize: Buffer.byteLength(body),
      ...(body !== '' && { postData: { mimeType: contentType(headers), text: body } }),
    },
    response: {
      status: x.response?.status ?? 0, statusText: '', httpVersion: 'HTTP/1.1', headers: headerList(x.response?.headers ?? {}), cookies: [],
      content: { size: Buffer.byteLength(x.response?.body ?? ''), mimeType: contentType(x.response?.headers ?? {}), text: x.response?.body ?? '' },
      redirectURL: '', headersSize: -1, bodySize: Buffer.byteLength(x.response?.body ?? ''),
    },
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
    ...tags,
    ...(x.response === undefined && x.error !== undefined && { _error: x.error }),
  };
}

/** Writes exchanges as a HAR 1.2 document (what `readHar` reads back). Holds whatever the exchanges hold: redact first. */
export function writeHar(exchanges: readonly ObservedExchange[], creator: { name: string; version: string }): Har {
  return { log: { version: '1.2', creator, entries: exchanges.map((x) => harEntry(x)) } };
}
