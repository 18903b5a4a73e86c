/**
 * The recording proxy: one loopback port per environment of the upstream, REST at its root and SOAP at `/websvc`,
 * forwarding through the harness's transport and recording every exchange (secrets registered with the redactor as
 * they are recorded).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Redactor } from '../report/index.ts';
import { parseEnvelope, type ParseResult } from '../soap/index.ts';
import { ENVIRONMENTS, type Environment } from '../catalog/index.ts';
import type { EnvironmentEndpoints, Transport } from '../targets/index.ts';
import { observedNow, type ObservedExchange, type ObservedRequest, type ObservedResponse } from './exchange.ts';
import { compact, envelopesOf, sameEnvelopes, shareEnvelopes } from './envelopes.ts';
import { registerCredentialsOf } from './secrets.ts';
import type { BodySpool, SpooledBody } from './spool.ts';
import { StartOrder } from './start-order.ts';
import { answerOnSocket, lowerCaseRequest } from '../sim/lower-case-request.ts';
import { requestTargetUrl } from '../sim/http.ts';

/** Where the proxy takes SOAP requests (the upstream's SOAP URL may have any path). */
export const PROXY_SOAP_PATH = '/websvc';

/** A request about to be forwarded: what an injection may act on. */
export interface PendingRequest {
  readonly env: Environment;
  readonly protocol: 'rest' | 'soap';
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** A SOAP request's envelope, parsed (once: the recorded exchange keeps it). */
  readonly envelope?: ParseResult;
}

export interface ProxyHooks {
  /** Before the request is forwarded (fault injection acts on the upstream here); a promise holds the request until it settles. */
  before?(request: PendingRequest): void | Promise<void>;
  /** After the exchange was recorded. */
  after?(exchange: ObservedExchange): void;
}

export interface ProxyOptions {
  readonly upstream: Readonly<Partial<Record<Environment, EnvironmentEndpoints>>>;
  readonly transport: Transport;
  readonly redactor: Redactor;
  /** Default 127.0.0.1 (loopback only). */
  readonly host?: string;
  /** Port of the first environment; the next ones follow (0, the default: free ports). */
  readonly port?: number;
  readonly hooks?: ProxyHooks;
  /** Largest request body accepted, in bytes (default 1 MiB). */
  readonly maxBodyBytes?: number;
  /**
   * Where the bodies of SOAP exchanges go as they are recorded (encrypted, on disk); the recorded exchanges then
   * read them back when asked for. Without it, the proxy keeps them in memory.
   */
  readonly spool?: BodySpool;
  /**
   * Takes each recorded exchange in the order the judge reads them: by start, then `seq` (an exchange is held while a
   * request that started before it is in flight). The proxy keeps none of them but for `keepExchanges`.
   */
  readonly onExchange?: (x: ObservedExchange) => void;
  /** Keep every recorded exchange for {@link RecordingProxy.exchanges} (tests; memory then grows with the traffic). */
  readonly keepExchanges?: boolean;
}

export interface RecordingProxy {
  /** The proxy's URLs, per environment of the upstream: point the application at these. */
  readonly urls: Readonly<Partial<Record<Environment, EnvironmentEndpoints>>>;
  /** The exchanges recorded so far, in the order their answers ended (a copy); empty unless `keepExchanges`. */
  exchanges(): readonly ObservedExchange[];
  /** How many exchanges were recorded so far (without copying them). */
  count(): number;
  /** When the last request arrived or the last answer ended (ms since the epoch, by `observedNow`), or when the proxy started. */
  lastActivity(): number;
  /** Requests forwarded but not answered yet. */
  inFlight(): number;
  /** Requests the upstream gave no answer to (the proxy answered 502 itself), and the first one's error, redacted. */
  unanswered(): { readonly count: number; readonly first?: string };
  /** Hands over every exchange recorded so far, past the requests still in flight (the observation is judged). */
  settle(): void;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'upgrade', 'accept-encoding', 'expect']);
const RESPONSE_DROPPED = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'content-encoding']);

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/** A request as the proxy takes it: from Node's parser, or read from the bytes the parser refused. */
interface Incoming {
  readonly method: string;
  readonly target: string;
  readonly headers: Record<string, string>;
  readonly socket: Socket;
  read(): Promise<string | undefined>;
}

/** Writes the proxy's answer to a request (the first call only). */
type Reply = (status: number, headers: Readonly<Record<string, string | number>>, body: string) => void;

function readBody(req: IncomingMessage, max: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > max ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(undefined));
  });
}

/** A body as it is kept: the text, or where it is in the spool. */
type KeptBody = string | SpooledBody;

/** Headers as they are kept: one list of shared strings, name then value (the object is built when they are read). */
function flatHeaders(headers: Readonly<Record<string, string>>, strings: Map<string, string>): readonly string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(headers)) out.push(name, value);
  return compact(out, strings);
}

function headersFrom(flat: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i] as string] = flat[i + 1] as string;
  return out;
}

const bodyFrom = (body: KeptBody, spool: BodySpool | undefined): string => (typeof body === 'string' ? body : spool!.read(body));

/**
 * A recorded message as it is kept: its headers a list of shared strings and its body in the spool (SOAP) or shared
 * with the same body recorded before (REST). `headers` and `body` are built, or read back, when asked for (getters of
 * the class: a spread copy has neither; copy them by name).
 */
abstract class KeptMessage {
  readonly #headers: readonly string[];
  readonly #body: KeptBody;
  readonly #spool: BodySpool | undefined;

  constructor(headers: Readonly<Record<string, string>>, body: KeptBody, spool: BodySpool | undefined, strings: Map<string, string>) {
    this.#headers = flatHeaders(headers, strings);
    this.#body = body;
    this.#spool = spool;
  }

  get headers(): Readonly<Record<string, string>> {
    return headersFrom(this.#headers);
  }

  get body(): string {
    return bodyFrom(this.#body, this.#spool);
  }
}

/** A recorded request as it is kept: a few fields of one shape for every exchange (see {@link KeptMessage}). */
class KeptRequest extends KeptMessage implements ObservedRequest {
  readonly method: string;
  readonly url: string;
  readonly path: string;

  constructor(r: ObservedRequest, body: KeptBody, spool: BodySpool | undefined, strings: Map<string, string>) {
    super(r.headers, body, spool, strings);
    this.method = compact(r.method, strings);
    this.url = compact(r.url, strings);
    this.path = compact(r.path, strings);
  }
}

/** A recorded answer as it is kept (see {@link KeptMessage}). */
class KeptResponse extends KeptMessage implements ObservedResponse {
  readonly status: number;

  constructor(r: ObservedResponse, body: KeptBody, spool: BodySpool | undefined, strings: Map<string, string>) {
    super(r.headers, body, spool, strings);
    this.status = r.status;
  }
}

/**
 * The exchange as it is kept: its strings shared, its headers a list, and, with a spool, the bodies of a SOAP
 * exchange (its bulk) in the spool; its parsed envelopes kept (without the request body's element tree, see
 * `leanRequest`).
 */
function kept(x: ObservedExchange, spool: BodySpool | undefined, strings: Map<string, string>, bodies: Map<string, string>, retained: boolean): ObservedExchange {
  const toDisk = x.protocol === 'soap' && spool ? spool : undefined;
  const bodyOf = (text: string): KeptBody => {
    if (toDisk) return toDisk.write(text);
    // A body kept in memory is shared with the same body recorded before (the answers of an API are often alike).
    const body = bodies.get(text);
    if (body !== undefined) return body;
    if (bodies.size >= 1_024) bodies.clear();
    bodies.set(text, text);
    return text;
  };
  const light: ObservedExchange = {
    seq: x.seq, env: x.env, protocol: x.protocol, startedAt: x.startedAt, ...(x.earliestSend !== undefined && { earliestSend: x.earliestSend }), endedAt: x.endedAt,
    request: new KeptRequest(x.request, bodyOf(x.request.body), toDisk, strings),
    response: x.response && new KeptResponse(x.response, bodyOf(x.response.body), toDisk, strings),
    ...(x.error !== undefined && { error: x.error }),
  };
  // Kept for long (`keepExchanges`), its envelopes are made lean; read at once by the judge and dropped, they need not be.
  if (retained) sameEnvelopes(x, light, strings);
  else shareEnvelopes(x, light);
  return light;
}

const join = (base: string, path: string) => `${base.replace(/\/+$/, '')}${path}`;

/** Starts the proxy: one loopback server per environment the upstream has. */
export async function startRecordingProxy(options: ProxyOptions): Promise<RecordingProxy> {
  const host = options.host ?? '127.0.0.1';
  const max = options.maxBodyBytes ?? 1024 * 1024;
  const recorded: ObservedExchange[] = [];
  // The short strings of what is recorded (header values, the envelopes' names and values) and the bodies kept in
  // memory, shared between exchanges (caches, cleared when full).
  const strings = new Map<string, string>();
  const bodies = new Map<string, string>();
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  const urls: Partial<Record<Environment, EnvironmentEndpoints>> = {};
  let seq = 0;
  let count = 0;
  let unanswered = 0;
  let firstUnanswered: string | undefined;
  let last = observedNow();
  let pending = 0;
  const order = new StartOrder<ObservedExchange>((x) => options.onExchange?.(x));

  // Per connection, the earliest its next request can have been sent: accepted, or the last answer written on it.
  const readySince = new WeakMap<Socket, number>();

  /**
   * One request, from its arrival to its recording: `read` gives its body (undefined when too large), `reply` writes
   * the answer (at most once).
   */
  const handle = async (env: Environment, upstream: EnvironmentEndpoints, incoming: Incoming, reply: Reply): Promise<void> => {
    const startedAt = observedNow();
    const earliestSend = Math.min(startedAt, readySince.get(incoming.socket) ?? startedAt);
    last = startedAt;
    pending++;
    const ticket = order.begin(startedAt);
    try {
      const body = await incoming.read();
      if (body === undefined) {
        reply(413, { 'content-type': 'text/plain' }, 'request body too large for the observing proxy');
        return;
      }
      const { target, method, headers } = incoming;
      const url = requestTargetUrl(target, 'http://proxy');
      if (!url) {
        reply(400, { 'content-type': 'text/plain' }, 'bad request target');
        return;
      }
      const protocol = url.pathname === PROXY_SOAP_PATH ? 'soap' : 'rest';
      const mine = ++seq;
      const envelope = protocol === 'soap' ? parseEnvelope(body) : undefined;
      const hold = options.hooks?.before?.({ env, protocol, method, path: url.pathname, headers, body, ...(envelope && { envelope }) });
      if (hold) await hold;
      const forwardUrl = protocol === 'soap' ? `${upstream.soapUrl}${url.search}` : join(upstream.restBaseUrl, `${url.pathname}${url.search}`);
      const forwardHeaders = Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP_BY_HOP.has(k)));
      const request = { method, url: `${urls[env]?.restBaseUrl ?? ''}${target}`, path: url.pathname, headers, body };
      let exchange: ObservedExchange;
      try {
        const answer = await options.transport.request({ method, url: forwardUrl, headers: forwardHeaders, ...(body !== '' || !['GET', 'HEAD'].includes(method) ? { body } : {}) });
        const out = Object.fromEntries(Object.entries(answer.headers).filter(([k]) => !RESPONSE_DROPPED.has(k)));
        reply(answer.status, { ...out, 'content-length': Buffer.byteLength(answer.body) }, answer.body);
        exchange = { seq: mine, env, protocol, startedAt, earliestSend, endedAt: observedNow(), request, response: { status: answer.status, headers: answer.headers, body: answer.body } };
      } catch (err) {
        const message = (err as Error).message;
        reply(502, { 'content-type': 'text/plain' }, `the observing proxy got no answer from the upstream: ${options.redactor.redact(message)}`);
        unanswered++;
        firstUnanswered ??= `${method} ${url.pathname}: ${options.redactor.redact(message)}`;
        exchange = { seq: mine, env, protocol, startedAt, earliestSend, endedAt: observedNow(), request, response: undefined, error: message };
      }
      // The passwords now (whatever is written may meet them); the tokens of the exchanges a report shows when it is
      // written (the running judge cites them: session.ts).
      registerCredentialsOf(exchange, options.redactor);
      // As it comes: the envelopes parsed (the judge finds them so when the traffic stops), and the bodies of a SOAP
      // exchange, its bulk, written to the spool.
      if (protocol === 'soap') envelopesOf(exchange, envelope);
      const recordedOne = kept(exchange, options.spool, strings, bodies, options.keepExchanges ?? false);
      if (options.keepExchanges) recorded.push(recordedOne);
      count++;
      options.hooks?.after?.(recordedOne);
      order.complete(ticket, mine, recordedOne);
    } finally {
      order.drop(ticket);
      pending--;
      last = observedNow();
    }
  };

  let port = options.port ?? 0;
  for (const env of ENVIRONMENTS) {
    const upstream = options.upstream[env];
    if (!upstream) continue;
    const server = createServer((req, res) => {
      res.once('finish', () => readySince.set(req.socket, observedNow()));
      const reply: Reply = (status, headers, body) => {
        if (!res.headersSent) res.writeHead(status, headers).end(body);
      };
      const incoming: Incoming = { method: req.method ?? 'GET', target: req.url ?? '/', headers: headersOf(req), socket: req.socket, read: () => readBody(req, max) };
      handle(env, upstream, incoming, reply).catch((err: unknown) => reply(500, { 'content-type': 'text/plain' }, `observing proxy failure: ${options.redactor.redact((err as Error).message)}`));
    });
    // A request Node's parser refused for its method not in upper case is still forwarded and recorded as it came
    // (API-03: "Method: Upper case"), on a connection then closed; anything else the parser refused gets a plain 400.
    server.on('clientError', (err: Error & { rawPacket?: Buffer }, socket: Socket) => {
      if (!socket.writable) return;
      const request = lowerCaseRequest(err.rawPacket);
      if (!request) {
        answerOnSocket(socket);
        return;
      }
      let replied = false;
      const reply: Reply = (status, headers, body) => {
        if (replied || !socket.writable) return;
        replied = true;
        answerOnSocket(socket, { status, headers, body });
      };
      const { body, ...rest } = request;
      handle(env, upstream, { ...rest, socket, read: () => Promise.resolve(body) }, reply).catch((e: unknown) => reply(500, { 'content-type': 'text/plain' }, `observing proxy failure: ${options.redactor.redact((e as Error).message)}`));
    });
    server.keepAliveTimeout = 5_000;
    server.on('connection', (s: Socket) => {
      readySince.set(s, observedNow());
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    }).catch(async (err: unknown) => {
      await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
      throw err;
    });
    const actual = (server.address() as AddressInfo).port;
    const base = `http://${host.includes(':') ? `[${host}]` : host}:${actual}`;
    urls[env] = { restBaseUrl: base, soapUrl: `${base}${PROXY_SOAP_PATH}` };
    servers.push(server);
    if (port !== 0) port = actual + 1;
  }
  return {
    urls,
    exchanges: () => [...recorded],
    count: () => count,
    lastActivity: () => last,
    inFlight: () => pending,
    unanswered: () => ({ count: unanswered, ...(firstUnanswered !== undefined && { first: firstUnanswered }) }),
    settle: () => order.settle(),
    async close() {
      for (const s of sockets) s.destroy();
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
}
