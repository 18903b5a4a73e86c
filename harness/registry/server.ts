import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SessionRegistry } from './registry.ts';
import { KEY_HEADER, readRequest, type RegistryEndpoint } from './wire.ts';

export interface RegistryServer {
  readonly endpoint: RegistryEndpoint;
  close(): Promise<void>;
}

/** A worker's profile facts are the largest body (durations of its requests, a few tokens). */
const MAX_BODY = 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => resolve(size <= MAX_BODY ? Buffer.concat(chunks).toString('utf8') : undefined));
    req.on('error', () => resolve(undefined));
  });
}

function keyMatches(given: string | string[] | undefined, key: string): boolean {
  if (typeof given !== 'string' || given.length !== key.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(key));
}

/** Serves `registry` to the run's workers on loopback (a port of its own), behind a key made for the run. */
export async function serveRegistry(registry: SessionRegistry): Promise<RegistryServer> {
  const key = randomBytes(24).toString('hex');
  const server = createServer((req, res) => {
    void (async () => {
      const answer = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method !== 'POST' || !keyMatches(req.headers[KEY_HEADER], key)) return answer(403, { error: 'forbidden' });
      const text = await readBody(req);
      let json: unknown;
      try {
        json = text === undefined ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      const request = readRequest(req.url ?? '', json);
      if (!request) return answer(400, { error: 'bad request' });
      switch (request.path) {
        case '/reserve':
          return answer(200, registry.reserve(request.body.kind, request.body.root === true));
        case '/refund':
          registry.refund(request.body.kind);
          return answer(200, { ok: true });
        case '/route':
          return answer(200, { outcome: registry.route(request.body.key) ?? null });
        case '/facts':
          registry.addFacts(request.body);
          return answer(200, { ok: true });
        case '/learned':
          registry.learnRoute(request.body.key, request.body.outcome);
          return answer(200, { ok: true });
        case '/opened':
          registry.opened(request.body);
          return answer(200, { ok: true });
        case '/closed':
          registry.closed(request.body.token);
          return answer(200, { ok: true });
      }
    })();
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: { url: `http://127.0.0.1:${port}`, key },
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
