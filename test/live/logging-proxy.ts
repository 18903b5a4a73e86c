/**
 * A loopback server that logs what it receives (method, path, headers) and passes each request on to another
 * server: the service's access log, as a QA engineer's counterpart would search it for a correlation ID.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export interface LoggedRequest {
  readonly method: string;
  readonly path: string;
  /** Header names lower-cased, as Node gives them. */
  readonly headers: IncomingHttpHeaders;
}

export interface LoggingProxy {
  /** The proxy's origin (`http://127.0.0.1:<port>`). */
  readonly origin: string;
  readonly log: readonly LoggedRequest[];
  close(): Promise<void>;
}

/**
 * Serves on loopback; every request is logged, then forwarded to `upstream` (an origin) and its answer returned.
 * `refuseHeader`: a gateway that refuses requests carrying that header (lower case) with a 400 HTML page of its own.
 */
export async function startLoggingProxy(upstream: string, options: { readonly refuseHeader?: string } = {}): Promise<LoggingProxy> {
  const log: LoggedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      log.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers });
      if (options.refuseHeader !== undefined && req.headers[options.refuseHeader] !== undefined) {
        res.writeHead(400, { 'content-type': 'text/html' });
        res.end('<html><body><h1>400 Bad Request</h1><p>Request header not allowed</p></body></html>');
        return;
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'connection')) as Record<string, string>;
      request(`${upstream}${req.url ?? '/'}`, { method: (req.method ?? 'GET') as 'GET', headers, body: chunks.length ? Buffer.concat(chunks) : undefined })
        .then(async (answer) => {
          const body = Buffer.from(await answer.body.arrayBuffer());
          const out = Object.fromEntries(Object.entries(answer.headers).filter(([k]) => !['connection', 'keep-alive', 'transfer-encoding', 'content-length'].includes(k)));
          res.writeHead(answer.statusCode, out);
          res.end(body);
        })
        .catch(() => {
          res.writeHead(502);
          res.end();
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    log,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
