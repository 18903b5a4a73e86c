import { Agent, ProxyAgent, request as undiciRequest, type Dispatcher } from 'undici';

/** One HTTP exchange as a check sees it. */
export interface HttpRequest {
  readonly method: string;
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Overrides the transport's time limit for this request (ms). */
  readonly timeoutMs?: number;
}

export interface HttpResponse {
  readonly status: number;
  /** Header names lower-cased; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly durationMs: number;
}

export type TransportErrorCode =
  /** No connection could be made: refused, no such host, connect time-out, TLS failure. */
  | 'TARGET_UNREACHABLE'
  /** Connected, but no complete answer within the time limit. */
  | 'TIMEOUT'
  /** The connection was cut before a complete answer. */
  | 'CONNECTION_DROPPED'
  /** The answer was larger than the transport accepts. */
  | 'RESPONSE_TOO_LARGE';

/** A request that got no (complete) answer. Checks turn it into an `error` verdict, or a `fail` where a hang is the rule's failure. */
export class TransportError extends Error {
  constructor(
    readonly code: TransportErrorCode,
    message: string,
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TransportError';
  }
}

export interface TransportOptions {
  /** Time limit of a whole request, connect to last byte (ms). */
  readonly timeoutMs?: number;
  /** Time limit of the TCP/TLS connect (ms). */
  readonly connectTimeoutMs?: number;
  /** Largest response body read, in bytes; a larger one is a `RESPONSE_TOO_LARGE` error. */
  readonly maxResponseBytes?: number;
  /** Extra trusted CA certificates (PEM), for a target with a private CA. */
  readonly ca?: string | readonly string[];
  /** Proxy URL; defaults to `HTTPS_PROXY` / `https_proxy` for https URLs when `useEnvProxy` is set. */
  readonly proxy?: string;
  readonly useEnvProxy?: boolean;
}

export interface Transport {
  request(req: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'ERR_TLS_CERT_ALTNAME_INVALID']);
const DROPPED = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const TIMED_OUT = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ABORT_ERR', 'UND_ERR_ABORTED']);

function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR') return code;
    if ((e as { name?: unknown }).name === 'TimeoutError' || (e as { name?: unknown }).name === 'AbortError') return 'ABORT_ERR';
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Maps an undici/Node network error to a {@link TransportError}. */
export function toTransportError(err: unknown, url: string, timeoutMs: number): TransportError {
  if (err instanceof TransportError) return err;
  const code = errorCode(err) ?? '';
  const where = new URL(url).origin;
  if (UNREACHABLE.has(code)) return new TransportError('TARGET_UNREACHABLE', `cannot reach ${where} (${code})`, url, { cause: err });
  if (TIMED_OUT.has(code)) return new TransportError('TIMEOUT', `no answer from ${where} within ${timeoutMs} ms`, url, { cause: err });
  if (DROPPED.has(code)) return new TransportError('CONNECTION_DROPPED', `${where} closed the connection before answering (${code})`, url, { cause: err });
  return new TransportError('TARGET_UNREACHABLE', `request to ${where} failed: ${code || (err as Error)?.message || String(err)}`, url, { cause: err });
}

function proxyFor(options: TransportOptions): string | undefined {
  if (options.proxy) return options.proxy;
  if (!options.useEnvProxy) return undefined;
  return process.env.HTTPS_PROXY ?? process.env.https_proxy ?? undefined;
}

/**
 * The one HTTP transport of the harness (undici): time limits on connect and on the whole exchange, keep-alive,
 * a bounded response size, optional private CA and proxy. Nothing else in the harness opens connections.
 */
export function createTransport(options: TransportOptions = {}): Transport {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxResponseBytes ?? 4 * 1024 * 1024;
  const ca = options.ca === undefined ? undefined : Array.isArray(options.ca) ? [...options.ca] : [options.ca as string];
  const connect = { timeout: options.connectTimeoutMs ?? Math.min(timeoutMs, 5_000), ...(ca && { ca }) };
  const proxy = proxyFor(options);
  const dispatcher: Dispatcher = proxy
    ? new ProxyAgent({ uri: proxy, requestTls: connect, proxyTls: connect, headersTimeout: timeoutMs, bodyTimeout: timeoutMs })
    : new Agent({ connect, keepAliveTimeout: 4_000, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connections: 16 });

  return {
    async request(req) {
      const limit = req.timeoutMs ?? timeoutMs;
      const started = performance.now();
      const signal = AbortSignal.timeout(limit);
      try {
        const res = await undiciRequest(req.url, {
          method: req.method as Dispatcher.HttpMethod,
          headers: req.headers ? { ...req.headers } : {},
          body: req.body,
          dispatcher,
          signal,
          headersTimeout: limit,
          bodyTimeout: limit,
        });
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of res.body) {
          size += (chunk as Buffer).length;
          if (size > maxBytes) {
            res.body.destroy();
            throw new TransportError('RESPONSE_TOO_LARGE', `the answer from ${new URL(req.url).origin} is larger than ${maxBytes} bytes`, req.url);
          }
          chunks.push(chunk as Buffer);
        }
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
        }
        return { status: res.statusCode, headers, body: Buffer.concat(chunks).toString('utf8'), durationMs: performance.now() - started };
      } catch (err) {
        throw toTransportError(signal.aborted ? Object.assign(new Error('aborted'), { code: 'ABORT_ERR', cause: err }) : err, req.url, limit);
      }
    },
    async close() {
      await dispatcher.close().catch(() => dispatcher.destroy());
    },
  };
}
