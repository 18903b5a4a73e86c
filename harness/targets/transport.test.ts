import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTransport, TransportError, toTransportError, type Transport, type TransportOptions } from './transport.ts';

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
