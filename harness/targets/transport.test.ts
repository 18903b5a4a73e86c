import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestPki } from '../../test/live/test-pki.ts';
import { ManualClock, SimCore, simAccount, startSimServer } from '../sim/index.ts';
import { basicAuthorization } from '../credentials/index.ts';
import { createTransport, decodeBody, TransportError, toTransportError, type Transport, type TransportOptions } from './transport.ts';

const SECRET = 'Basic c2VjcmV0LWNyZWRlbnRpYWxz';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A tiny HTTP server on 127.0.0.1 (free port), closed after the test with every socket it holds. */
async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server: Server = createServer(handler);
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  closers.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An address where nothing listens: a port bound and released again. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

function transport(options: TransportOptions = {}): Transport {
  const t = createTransport(options);
  closers.push(() => t.close());
  return t;
}

async function failure(promise: Promise<unknown>): Promise<TransportError> {
  const outcome = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(outcome instanceof TransportError)) throw new Error(`expected a TransportError, got ${String(outcome)}`);
  return outcome;
}

/** The request details a transport error message must never show. */
function expectNoRequestDetails(err: TransportError): void {
  for (const detail of [SECRET, 'c2VjcmV0', 'x-api-key', 'k3y-value', '/v2/auth/token', 'q=private', 'grant_type']) expect(err.message).not.toContain(detail);
}

const request = (origin: string, extra: { timeoutMs?: number } = {}) => ({
  method: 'POST',
  url: `${origin}/v2/auth/token?q=private`,
  headers: { authorization: SECRET, 'x-api-key': 'k3y-value', 'content-type': 'application/x-www-form-urlencoded' },
  body: 'grant_type=client_credentials',
  ...extra,
});

describe('createTransport', () => {
  it('returns the status, lower-cased headers (repeated ones joined) and the body, and sends method, headers and body', async () => {
    let seen: { method?: string; url?: string; authorization?: string; body: string } = { body: '' };
    const origin = await listen((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        seen = { method: req.method, url: req.url, authorization: req.headers.authorization, body };
        res.writeHead(201, [['X-Custom', 'A'], ['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2'], ['Content-Type', 'text/plain; charset=utf-8']]);
        res.end('héllo');
      });
    });
    const res = await transport().request(request(origin));
    expect(res.status).toBe(201);
    expect(res.body).toBe('héllo');
    expect(res.headers['x-custom']).toBe('A');
    expect(res.headers['set-cookie']).toBe('a=1, b=2');
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(Object.keys(res.headers).every((name) => name === name.toLowerCase())).toBe(true);
    expect(res.durationMs).toBeGreaterThanOrEqual(0);
    expect(seen).toEqual({ method: 'POST', url: '/v2/auth/token?q=private', authorization: SECRET, body: 'grant_type=client_credentials' });
  });

  it('reads a UTF-16 answer as its byte order mark or its charset says (an XML document may be UTF-16), else UTF-8', async () => {
    const xml = '<?xml version="1.0" encoding="UTF-16"?><a>é</a>';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]);
    const origin = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/xml; charset=UTF-16' });
      res.end(le);
    });
    expect((await transport().request(request(origin))).body).toBe(xml);
    expect(decodeBody(Buffer.from(xml, 'utf16le'), 'text/xml;charset=utf-16le')).toBe(xml);
    expect(decodeBody(Buffer.from(xml, 'utf16le'), 'text/xml; charset="UTF-16"')).toBe(xml);
    expect(decodeBody(Buffer.from(xml, 'utf8'), 'text/xml')).toBe(xml);
    expect(decodeBody(Buffer.from('{"a":"é"}', 'utf8'), 'application/json;charset=UTF-8')).toBe('{"a":"é"}');
  });

  it('asks for no content coding, and reads an answer a gateway encoded anyway (gzip, deflate raw or zlib, br, two codings) decoded', async () => {
    const { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } = await import('node:zlib');
    const json = '{"access_token":"T1RLAQabc*","token_type":"bearer","expires_in":604800}';
    const codings: [string, Buffer][] = [
      ['gzip', gzipSync(json)], ['deflate', deflateSync(json)], ['deflate', deflateRawSync(json)], ['br', brotliCompressSync(json)], ['deflate, gzip', gzipSync(deflateSync(json))],
    ];
    for (const [coding, bytes] of codings) {
      let asked: string | undefined;
      const origin = await listen((req, res) => {
        asked = req.headers['accept-encoding'];
        req.resume();
        req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding }).end(bytes));
      });
      const res = await transport().request(request(origin));
      expect(asked).toBe('identity');
      expect([coding, res.body]).toEqual([coding, json]);
      expect(res.headers['content-encoding']).toBeUndefined();
    }
    const bad = await listen((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end('not gzip'));
    });
    const err = await transport().request(request(bad)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as Error).message).toMatch(/could not be decoded from its content coding "gzip"/);
  });

  it('reports TARGET_UNREACHABLE for a port where nothing listens', async () => {
    const origin = await closedPort();
    const err = await failure(transport().request(request(origin)));
    expect(err.code).toBe('TARGET_UNREACHABLE');
    expect(err.message).toBe(`cannot reach ${origin} (ECONNREFUSED)`);
    expect(err.url).toBe(`${origin}/v2/auth/token?q=private`);
    expectNoRequestDetails(err);
  });

  it('reports TIMEOUT for a server that never answers', async () => {
    const origin = await listen(() => undefined);
    const err = await failure(transport({ timeoutMs: 300 }).request(request(origin)));
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toBe(`no answer from ${origin} within 300 ms`);
    expectNoRequestDetails(err);
  });

  it('applies the time limit of the request over the transport default', async () => {
    const origin = await listen(() => undefined);
    const err = await failure(transport({ timeoutMs: 60_000 }).request(request(origin, { timeoutMs: 250 })));
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toBe(`no answer from ${origin} within 250 ms`);
  });

  it('reports TIMEOUT for a server that sends headers and then stalls the body', async () => {
    const origin = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
    });
    const err = await failure(transport({ timeoutMs: 300 }).request(request(origin)));
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toBe(`no answer from ${origin} within 300 ms`);
  });

  it('reports CONNECTION_DROPPED for a server that destroys the socket', async () => {
    const origin = await listen((req) => req.socket.destroy());
    const err = await failure(transport({ timeoutMs: 10_000 }).request(request(origin)));
    expect(err.code).toBe('CONNECTION_DROPPED');
    expect(err.message).toMatch(/^http:\/\/127\.0\.0\.1:\d+ closed the connection before answering \((UND_ERR_SOCKET|ECONNRESET)\)$/);
    expect(err.message.startsWith(origin)).toBe(true);
    expectNoRequestDetails(err);
  });

  it('reports RESPONSE_TOO_LARGE for an answer over maxResponseBytes', async () => {
    const origin = await listen((_req, res) => res.end('x'.repeat(10_000)));
    const err = await failure(transport({ maxResponseBytes: 64 }).request(request(origin)));
    expect(err.code).toBe('RESPONSE_TOO_LARGE');
    expect(err.message).toBe(`the answer from ${origin} is larger than 64 bytes`);
    expectNoRequestDetails(err);
  });

  it('reads an answer of exactly maxResponseBytes', async () => {
    const origin = await listen((_req, res) => res.end('x'.repeat(64)));
    expect((await transport({ maxResponseBytes: 64 }).request(request(origin))).body).toHaveLength(64);
  });
});

describe('toTransportError', () => {
  const url = 'https://api.example.test/v2/auth/token?secret=1';

  it.each([
    ['a name that does not resolve', { code: 'ENOTFOUND' }, 'TARGET_UNREACHABLE', 'cannot reach https://api.example.test (ENOTFOUND)'],
    ['a connect time-out', { code: 'UND_ERR_CONNECT_TIMEOUT' }, 'TARGET_UNREACHABLE', 'cannot reach https://api.example.test (UND_ERR_CONNECT_TIMEOUT)'],
    ['an untrusted certificate', { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, 'TARGET_UNREACHABLE', 'cannot reach https://api.example.test (DEPTH_ZERO_SELF_SIGNED_CERT)'],
    ['a refusal wrapped in a generic undici error', { code: 'UND_ERR', cause: { code: 'ECONNREFUSED' } }, 'TARGET_UNREACHABLE', 'cannot reach https://api.example.test (ECONNREFUSED)'],
    ['a headers time-out', { code: 'UND_ERR_HEADERS_TIMEOUT' }, 'TIMEOUT', 'no answer from https://api.example.test within 1500 ms'],
    ['a TimeoutError', { name: 'TimeoutError' }, 'TIMEOUT', 'no answer from https://api.example.test within 1500 ms'],
    ['an AbortError two causes deep', { cause: { cause: { name: 'AbortError' } } }, 'TIMEOUT', 'no answer from https://api.example.test within 1500 ms'],
    ['a connection reset', { code: 'ECONNRESET' }, 'CONNECTION_DROPPED', 'https://api.example.test closed the connection before answering (ECONNRESET)'],
    ['a socket closed by the other side', { code: 'UND_ERR_SOCKET' }, 'CONNECTION_DROPPED', 'https://api.example.test closed the connection before answering (UND_ERR_SOCKET)'],
    ['an unknown error code', { code: 'ERR_SOMETHING_ELSE' }, 'TARGET_UNREACHABLE', 'request to https://api.example.test failed: ERR_SOMETHING_ELSE'],
    ['an error with no code', new Error('boom'), 'TARGET_UNREACHABLE', 'request to https://api.example.test failed: boom'],
  ] as const)('maps %s to %s', (_label, err, code, message) => {
    const mapped = toTransportError(err, url, 1500);
    expect(mapped).toBeInstanceOf(TransportError);
    expect(mapped.code).toBe(code);
    expect(mapped.message).toBe(message);
    expect(mapped.url).toBe(url);
    expect(mapped.cause).toBe(err);
  });

  it('returns a TransportError unchanged', () => {
    const original = new TransportError('RESPONSE_TOO_LARGE', 'too large', url);
    expect(toTransportError(original, url, 1)).toBe(original);
  });
});

describe('createTransport retries', () => {
  /** A server that counts the requests it got, and treats the first `drops` of them with `drop`. */
  async function dropping(drops: number, drop: (req: IncomingMessage, res: ServerResponse) => void) {
    const seen: string[] = [];
    const origin = await listen((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      if (seen.length <= drops) return drop(req, res);
      res.writeHead(200, { 'content-type': 'text/plain' }).end(req.method === 'HEAD' ? undefined : 'second time lucky');
    });
    return { origin, seen };
  }
  const destroy = (req: IncomingMessage) => req.socket.destroy();

  it('sends a GET once more when its connection is dropped before any answer', async () => {
    const { origin, seen } = await dropping(1, destroy);
    const res = await transport().request({ method: 'GET', url: `${origin}/v1/lists/supported/shop/themes` });
    expect(res.status).toBe(200);
    expect(res.body).toBe('second time lucky');
    expect(seen).toEqual(['GET /v1/lists/supported/shop/themes', 'GET /v1/lists/supported/shop/themes']);
  });

  it('sends a HEAD once more when its connection is dropped before any answer', async () => {
    const { origin, seen } = await dropping(1, destroy);
    const res = await transport().request({ method: 'HEAD', url: `${origin}/` });
    expect(res.status).toBe(200);
    expect(seen).toEqual(['HEAD /', 'HEAD /']);
  });

  it('retries a GET only once: a second drop is CONNECTION_DROPPED', async () => {
    const { origin, seen } = await dropping(5, destroy);
    const err = await failure(transport().request({ method: 'GET', url: `${origin}/x` }));
    expect(err.code).toBe('CONNECTION_DROPPED');
    expect(err.message).toMatch(/^http:\/\/127\.0\.0\.1:\d+ closed the connection before answering \((UND_ERR_SOCKET|ECONNRESET)\)$/);
    expect(seen).toEqual(['GET /x', 'GET /x']);
  });

  it('never retries a POST whose connection is dropped (it may have created a token)', async () => {
    const { origin, seen } = await dropping(1, destroy);
    const err = await failure(transport().request(request(origin)));
    expect(err.code).toBe('CONNECTION_DROPPED');
    expect(seen).toEqual(['POST /v2/auth/token?q=private']);
  });

  it('sends a POST that creates nothing once more (a ping, a close), but never a TokenCreateRQ or a SessionCreateRQ', async () => {
    const soap = (action: string) => ({ method: 'POST', url: '', headers: { 'content-type': 'text/xml' }, body: `<soap-env:Envelope><soap-env:Header><eb:MessageHeader><eb:Action>${action}</eb:Action></eb:MessageHeader></soap-env:Header></soap-env:Envelope>` });
    for (const [action, times] of [['OTA_PingRQ', 2], ['SessionCloseRQ', 2], ['TokenCreateRQ', 1], ['SessionCreateRQ', 1]] as const) {
      const { origin, seen } = await dropping(1, destroy);
      const sent = transport().request({ ...soap(action), url: `${origin}/websvc` });
      if (times === 2) expect((await sent).status).toBe(200);
      else expect((await failure(sent)).code).toBe('CONNECTION_DROPPED');
      expect(seen, action).toHaveLength(times);
    }
  });

  it('sends a request that may create a token or a session on a connection kept at most briefly, which a server\'s idle timer cannot drop as it is sent', async () => {
    // The server closes a connection idle for 300 ms or more as the next request comes on it: the race of a
    // kept-alive connection closed as a request is sent (RFC 9112 §9.5), made certain.
    const lastAnswer = new WeakMap<Socket, number>();
    const seen: string[] = [];
    const origin = await listen((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      const last = lastAnswer.get(req.socket);
      if (last !== undefined && performance.now() - last >= 300) {
        req.socket.destroy();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok', () => lastAnswer.set(req.socket, performance.now()));
    });
    const t = transport();
    const soap = (action: string) => ({ method: 'POST', url: `${origin}/websvc`, headers: { 'content-type': 'text/xml' }, body: `<Envelope><Header><MessageHeader><Action>${action}</Action></MessageHeader></Header></Envelope>` });
    const token = { method: 'POST', url: `${origin}/v2/auth/token`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' };
    const pause = () => new Promise((resolve) => setTimeout(resolve, 400));
    for (const req of [token, token, soap('TokenCreateRQ'), soap('SessionCreateRQ')]) {
      expect((await t.request(req)).status).toBe(200);
      await pause();
    }
    expect(seen).toEqual(['POST /v2/auth/token', 'POST /v2/auth/token', 'POST /websvc', 'POST /websvc']);
    // Back to back, they share a connection (a connection of their own each would cost a quarter of a default run).
    const sockets = new Set<number>();
    const shared = await listen((req, res) => {
      sockets.add(req.socket.remotePort ?? 0);
      res.writeHead(200).end('ok');
    });
    for (let i = 0; i < 6; i++) await t.request({ ...token, url: `${shared}/v2/auth/token` });
    expect(sockets.size).toBeLessThanOrEqual(2);
  });

  it('never retries a GET that timed out', async () => {
    const { origin, seen } = await dropping(1, () => undefined);
    const err = await failure(transport({ timeoutMs: 300 }).request({ method: 'GET', url: `${origin}/slow` }));
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toBe(`no answer from ${origin} within 300 ms`);
    expect(seen).toEqual(['GET /slow']);
  });

  it('never retries a GET whose connection is dropped after the response headers (the server did answer)', async () => {
    const { origin, seen } = await dropping(1, (req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' });
      res.write('partial', () => req.socket.destroy());
    });
    const err = await failure(transport().request({ method: 'GET', url: `${origin}/cut` }));
    expect(err.code).toBe('CONNECTION_DROPPED');
    expect(seen).toEqual(['GET /cut']);
  });

  it('never retries a GET whose answer is too large', async () => {
    const { origin, seen } = await dropping(1, (_req, res) => res.end('x'.repeat(10_000)));
    const err = await failure(transport({ maxResponseBytes: 64 }).request({ method: 'GET', url: `${origin}/big` }));
    expect(err.code).toBe('RESPONSE_TOO_LARGE');
    expect(seen).toEqual(['GET /big']);
  });
});

describe('createTransport through a proxy', () => {
  /** A CONNECT proxy on 127.0.0.1 (what HTTPS_PROXY points at): tunnels to the asked-for host and records it. */
  async function connectProxy(): Promise<{ url: string; tunnels: string[] }> {
    const tunnels: string[] = [];
    const sockets = new Set<Socket>();
    const track = (s: Socket) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    };
    const proxy = createServer((_req, res) => res.writeHead(405).end('CONNECT only'));
    proxy.on('connection', track);
    proxy.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
      tunnels.push(req.url ?? '');
      const [host = '', port = ''] = (req.url ?? '').split(/:(?=\d+$)/);
      const upstream = connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      track(upstream);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', () => resolve()));
    closers.push(async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    });
    return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, tunnels };
  }

  /** The simulator over HTTPS on loopback, with a throw-away CA; and a correct token request to it. */
  async function httpsSim() {
    const dir = mkdtempSync(join(tmpdir(), 'tds-proxy-'));
    closers.push(async () => rmSync(dir, { recursive: true, force: true }));
    const pki = makeTestPki(dir);
    const account = simAccount({ epr: '7971', pcc: 'Z2NL', password: 'proxy-Pa55word' });
    const core = new SimCore({ clock: new ManualClock(), accounts: { cert: [account], prod: [] } });
    const server = await startSimServer(core, { tls: { key: pki.key, cert: pki.cert } });
    closers.push(() => server.close());
    const { host } = new URL(server.urls.cert.restBaseUrl);
    const tokenRequest = {
      method: 'POST',
      url: `${server.urls.cert.restBaseUrl}/v2/auth/token`,
      headers: {
        authorization: basicAuthorization({ userid: account.epr, group: account.pcc, domain: account.restDomain, password: account.password }),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    };
    return { pki, host, core, tokenRequest };
  }

  /** Sets the proxy variables for one test. */
  function proxyEnv(values: { HTTPS_PROXY?: string; https_proxy?: string }): void {
    const saved = { HTTPS_PROXY: process.env.HTTPS_PROXY, https_proxy: process.env.https_proxy };
    for (const name of ['HTTPS_PROXY', 'https_proxy'] as const) {
      const value = values[name];
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    closers.push(async () => {
      for (const name of ['HTTPS_PROXY', 'https_proxy'] as const) {
        const value = saved[name];
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    });
  }

  it('tunnels HTTPS through the CONNECT proxy of HTTPS_PROXY when useEnvProxy is set, trusting the private CA', async () => {
    const sim = await httpsSim();
    const proxy = await connectProxy();
    proxyEnv({ HTTPS_PROXY: proxy.url });
    const res = await transport({ useEnvProxy: true, ca: sim.pki.ca }).request(sim.tokenRequest);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ token_type: 'bearer', expires_in: 604800 });
    expect(proxy.tunnels).toEqual([sim.host]);
    expect(sim.core.events.since().map((e) => e.outcome)).toEqual(['token-issued']);
  });

  it('reads https_proxy (lower case) too', async () => {
    const sim = await httpsSim();
    const proxy = await connectProxy();
    proxyEnv({ https_proxy: proxy.url });
    expect((await transport({ useEnvProxy: true, ca: sim.pki.ca }).request(sim.tokenRequest)).status).toBe(200);
    expect(proxy.tunnels).toEqual([sim.host]);
  });

  it('ignores HTTPS_PROXY without useEnvProxy', async () => {
    const sim = await httpsSim();
    const proxy = await connectProxy();
    proxyEnv({ HTTPS_PROXY: proxy.url });
    expect((await transport({ ca: sim.pki.ca }).request(sim.tokenRequest)).status).toBe(200);
    expect(proxy.tunnels).toEqual([]);
  });

  it('refuses a certificate of a CA it was not given, also through the proxy (TARGET_UNREACHABLE)', async () => {
    const sim = await httpsSim();
    const proxy = await connectProxy();
    proxyEnv({ HTTPS_PROXY: proxy.url });
    const err = await failure(transport({ useEnvProxy: true }).request(sim.tokenRequest));
    expect(err.code).toBe('TARGET_UNREACHABLE');
    expect(proxy.tunnels).toEqual([sim.host]);
    expect(sim.core.events.since()).toEqual([]);
  });
});
