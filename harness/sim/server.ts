import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { ENVIRONMENTS, type Environment } from '../catalog/index.ts';
import type { SimCore } from './core.ts';
import { SOAP_PATH } from './core.ts';
import { requestTargetUrl, type SimRequest } from './http.ts';
import { handleControl, CONTROL_PREFIX, type ControlOptions } from './control.ts';
import { answerOnSocket, lowerCaseRequest } from './lower-case-request.ts';

export interface SimServerOptions {
  readonly host?: string;
  /** Ports per environment; 0 (default) picks free ones. */
  readonly ports?: Partial<Record<Environment, number>>;
  /** Serve HTTPS with this key and certificate (PEM). */
  readonly tls?: { readonly key: string; readonly cert: string };
  /** Serve the control endpoint under `/__sim/` (clock, accounts, events). Off unless asked for. */
  readonly control?: ControlOptions | false;
  /** Largest request body accepted, in bytes. */
  readonly maxBodyBytes?: number;
  /**
   * Milliseconds to wait before acting on a request and answering it (slow-service tests); none by default.
   * `Infinity`: the request is never acted on nor answered (a service that hangs).
   */
  readonly delay?: (request: SimRequest) => number;
  /**
   * A gateway in front (tests of deployed services): the answer it gives a request itself, which the simulator then
   * never sees; `undefined` passes the request on.
   */
  readonly front?: (request: SimRequest) => GatewayAnswer | undefined;
  /** A gateway behind which the simulator answers (tests of deployed services): what it makes of an answer, `undefined` leaves it. */
  readonly back?: (request: SimRequest, answer: GatewayAnswer) => GatewayAnswer | undefined;
}

/** An answer a test's gateway gives or rewrites. */
export interface GatewayAnswer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface SimEndpoints {
  readonly restBaseUrl: string;
  readonly soapUrl: string;
}

export interface SimServer {
  readonly urls: Readonly<Record<Environment, SimEndpoints>>;
  /** Base URL of the control endpoint, when served. */
  readonly controlUrl: string | undefined;
  close(): Promise<void>;
}

/** Serves the simulator core over real HTTP(S) on loopback: one port per environment, REST and SOAP on each. */
export async function startSimServer(core: SimCore, options: SimServerOptions = {}): Promise<SimServer> {
  const host = options.host ?? '127.0.0.1';
  const scheme = options.tls ? 'https' : 'http';
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  const urls = {} as Record<Environment, SimEndpoints>;
  for (const env of ENVIRONMENTS) {
    const listener = (req: IncomingMessage, res: ServerResponse) => void serve(core, env, req, res, options);
    const server = options.tls ? createHttpsServer({ key: options.tls.key, cert: options.tls.cert }, listener) : createHttpServer(listener);
    server.keepAliveTimeout = 5_000;
    server.on('connection', (s: Socket) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    server.on('clientError', (err: Error & { rawPacket?: Buffer }, socket: Socket) => answerUnparsed(core, env, err, socket));
    server.on('secureConnection', (s: Socket) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.ports?.[env] ?? 0, host, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const base = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`;
    urls[env] = { restBaseUrl: base, soapUrl: `${base}${SOAP_PATH}` };
    servers.push(server);
  }
  return {
    urls,
    controlUrl: options.control ? `${urls.cert.restBaseUrl}${CONTROL_PREFIX}` : undefined,
    async close() {
      for (const s of sockets) s.destroy();
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
}

/**
 * A request Node's HTTP parser refused. One with a method that is not upper-case (`get /path HTTP/1.1`: the parser
 * knows only upper-case methods) is handed to the simulator as it came, so that it is in the event log and API-03 can
 * judge it; anything else gets a plain 400. Either way the connection is closed.
 */
function answerUnparsed(core: SimCore, env: Environment, err: Error & { rawPacket?: Buffer }, socket: Socket): void {
  if (!socket.writable) return;
  const request = lowerCaseRequest(err.rawPacket);
  if (!request) {
    answerOnSocket(socket);
    return;
  }
  const url = requestTargetUrl(request.target, 'http://sim');
  if (!url) {
    answerOnSocket(socket);
    return;
  }
  const answer = core.handle({ env, method: request.method, path: url.pathname, query: url.search.slice(1), headers: request.headers, body: request.body });
  if (answer.kind !== 'response') {
    socket.destroy();
    return;
  }
  answerOnSocket(socket, answer);
}

/**
 * A request target that the URL parser leaves as it is: a path with no query, no dot segments, no percent-escapes and
 * only characters it does not escape (and not `//…`, which it would read as a host).
 */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9\-_~!$&()*+,;=:@/]*$/;

async function serve(core: SimCore, env: Environment, req: IncomingMessage, res: ServerResponse, options: SimServerOptions): Promise<void> {
  const body = await readBody(req, res, options.maxBodyBytes ?? 1024 * 1024);
  if (body === undefined) return;
  const target = req.url ?? '/';
  // A plain path comes out of the URL parser unchanged: skip it (it was a measurable part of a request's cost).
  const url = !options.control && PLAIN_PATH.test(target) ? undefined : requestTargetUrl(target, 'http://sim');
  if (!options.control && !PLAIN_PATH.test(target) && !url) {
    res.writeHead(400, { 'content-type': 'text/plain', connection: 'close' }).end('bad request target');
    return;
  }
  if (url && options.control && url.pathname.startsWith(CONTROL_PREFIX)) {
    const answer = handleControl(core, options.control, req.method ?? 'GET', url, body);
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    return;
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const simRequest: SimRequest = { env, method: req.method ?? 'GET', path: url ? url.pathname : target, query: url ? url.search.slice(1) : '', headers, body };
  const wait = options.delay?.(simRequest) ?? 0;
  if (wait === Number.POSITIVE_INFINITY) return; // never answered; the socket is destroyed when the server closes
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const fronted = options.front?.(simRequest);
  if (fronted) {
    res.writeHead(fronted.status, { ...fronted.headers, 'content-length': Buffer.byteLength(fronted.body) }).end(fronted.body);
    return;
  }
  const answer = core.handle(simRequest);
  if (answer.kind === 'hang') return; // never answered; the socket is destroyed when the server closes
  if (answer.kind === 'drop') {
    req.socket.destroy();
    return;
  }
  const out = options.back?.(simRequest, answer) ?? answer;
  // With a Content-Length the head and body go out in one write; without it Node sends a chunked body (more writes).
  res.writeHead(out.status, { ...out.headers, 'content-length': Buffer.byteLength(out.body) }).end(out.body);
}

/**
 * The request body as text; `undefined` when the request was cut off, or was too large and has been answered with
 * 413. Read with plain stream events: an async iterator per request was a measurable part of a request's cost.
 */
function readBody(req: IncomingMessage, res: ServerResponse, max: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > max) {
        // Answer now, then read and discard the rest and close the connection: leaving the rest unread on a kept-alive
        // connection made a later request on it go unanswered (and a reset would lose the 413 itself).
        tooLarge = true;
        chunks.length = 0;
        res.writeHead(413, { 'content-type': 'text/plain', connection: 'close' }).end('request body too large');
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? undefined : (chunks.length === 1 ? chunks[0] as Buffer : Buffer.concat(chunks)).toString('utf8')));
    // Cut off before the end ('close' without 'end'), or a stream error: nothing to answer.
    req.on('error', () => resolve(undefined));
    req.on('close', () => resolve(undefined));
  });
}
