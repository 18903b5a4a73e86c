import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { SOAP_PATH } from '../../harness/sim/index.ts';

/**
 * How a hostile target answers every request, REST and SOAP alike:
 * - `huge`: a 200 whose body streams on for {@link HUGE_BYTES} bytes (with backpressure: it stops when the reader goes);
 * - `drip`: a 200 whose body comes one byte every 200 ms and never ends;
 * - `not-json`: a 200 "application/json" whose body is an HTML error page;
 * - `not-xml`: a 200 "text/xml" whose body is not XML at all;
 * - `billion-laughs`: a 200 "text/xml" envelope whose DTD defines an entity that expands to gigabytes;
 * - `xxe`: a 200 "text/xml" envelope whose DTD defines external entities (a local file) used in the body.
 */
export type HostileMode = 'huge' | 'drip' | 'not-json' | 'not-xml' | 'billion-laughs' | 'xxe';

/** The size of the `huge` answer. */
export const HUGE_BYTES = 64 * 1024 * 1024;

/** The "billion laughs" document: ten levels of ten references, 10^9 copies of "lol" once expanded. */
export function billionLaughs(): string {
  const entities = ['<!ENTITY lol "lol">'];
  for (let i = 1; i <= 9; i++) entities.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`);
  return [
    '<?xml version="1.0"?>',
    `<!DOCTYPE lolz [${entities.join('')}]>`,
    '<soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><soap-env:Header/>',
    '<soap-env:Body><lolz>&lol9;</lolz></soap-env:Body></soap-env:Envelope>',
  ].join('\n');
}

/** An envelope that asks the parser to include local files (`file:///etc/hostname` and `markerFile`) in its body. */
export function xxeEnvelope(markerFile: string): string {
  return [
    '<?xml version="1.0"?>',
    `<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/hostname"><!ENTITY marker SYSTEM "file://${markerFile}">]>`,
    '<soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/" xmlns:eb="http://www.ebxml.org/namespaces/messageHeader"',
    ' xmlns:wsse="http://schemas.xmlsoap.org/ws/2002/12/secext">',
    '<soap-env:Header><eb:MessageHeader><eb:Action>&xxe;</eb:Action><eb:ConversationId>&marker;</eb:ConversationId></eb:MessageHeader>',
    '<wsse:Security><wsse:BinarySecurityToken valueType="String" EncodingType="wsse:Base64Binary">&marker;</wsse:BinarySecurityToken></wsse:Security>',
    '</soap-env:Header><soap-env:Body><x>&xxe;</x><y>&marker;</y></soap-env:Body></soap-env:Envelope>',
  ].join('');
}

export interface HostileServer {
  /** The base URL (REST) and the SOAP URL of the one server. */
  readonly restBaseUrl: string;
  readonly soapUrl: string;
  /** How it answers from now on. */
  mode: HostileMode;
  /** Requests it got, as `METHOD /path`. */
  readonly requests: string[];
  close(): Promise<void>;
}

/** A loopback server on 127.0.0.1 that answers every request as {@link HostileServer.mode} says. */
export async function startHostileServer(options: { readonly markerFile: string }): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const state = { mode: 'not-json' as HostileMode };
  const requests: string[] = [];

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    requests.push(`${req.method} ${req.url}`);
    const soap = (req.url ?? '').startsWith(SOAP_PATH);
    switch (state.mode) {
      case 'huge':
        void streamHuge(res, soap);
        return;
      case 'drip': {
        res.writeHead(200, { 'content-type': soap ? 'text/xml' : 'application/json' });
        const timer = setInterval(() => res.write(soap ? '<' : '{'), 200);
        timers.add(timer);
        res.on('close', () => {
          clearInterval(timer);
          timers.delete(timer);
        });
        return;
      }
      case 'not-json':
        res.writeHead(200, { 'content-type': 'application/json' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>');
        return;
      case 'not-xml':
        res.writeHead(200, { 'content-type': 'text/xml;charset=UTF-8' }).end('Service temporarily unavailable; try again later.');
        return;
      case 'billion-laughs':
        res.writeHead(200, { 'content-type': 'text/xml;charset=UTF-8' }).end(billionLaughs());
        return;
      case 'xxe':
        res.writeHead(200, { 'content-type': 'text/xml;charset=UTF-8' }).end(xxeEnvelope(options.markerFile));
        return;
    }
  };

  const server = createServer((req, res) => {
    // Read the request to its end first, as a service would.
    req.resume();
    req.on('end', () => handle(req, res));
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    restBaseUrl: base,
    soapUrl: `${base}${SOAP_PATH}`,
    get mode() {
      return state.mode;
    },
    set mode(mode: HostileMode) {
      state.mode = mode;
    },
    requests,
    async close() {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Streams {@link HUGE_BYTES} bytes a megabyte at a time, waiting for the reader; stops when it goes away. */
async function streamHuge(res: ServerResponse, soap: boolean): Promise<void> {
  const chunk = Buffer.alloc(1024 * 1024, soap ? 'x' : ' ');
  const head = soap ? '<?xml version="1.0"?><soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><soap-env:Body><x>' : '{"access_token":"';
  res.writeHead(200, { 'content-type': soap ? 'text/xml' : 'application/json', 'content-length': String(head.length + HUGE_BYTES) });
  res.write(head);
  let closed = false;
  res.on('close', () => (closed = true));
  for (let sent = 0; sent < HUGE_BYTES && !closed; sent += chunk.length) {
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  }
  if (!closed) res.end();
}
