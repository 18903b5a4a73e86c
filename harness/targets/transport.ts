import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { creates } from './creates.ts';
import { Agent, proxyAgentClass } from './undici-dispatchers.ts';

/** One HTTP exchange as a check sees it. */
export interface HttpRequest {
  readonly method: string;
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Overrides the transport's time limit for this request (ms). */
  readonly timeoutMs?: number;
  /**
   * Sent without the run's correlation header (harness/checks/trace.ts): a check's by-difference resend, to tell a
   * refusal of the request from a refusal of the header the harness adds.
   */
  readonly withoutCorrelationHeader?: boolean;
}

export interface HttpResponse {
  readonly status: number;
  /** Header names lower-cased; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly durationMs: number;
  /**
   * How many times the request was sent again after a gateway's error (502, 504) before this answer
   * (harness/targets/throttle.ts); absent when it was not.
   */
  readonly resent?: number;
}

export type TransportErrorCode =
  /** No connection could be made: refused, no such host, connect time-out, TLS failure. */
  | 'TARGET_UNREACHABLE'
  /** Connected, but no complete answer within the time limit. */
  | 'TIMEOUT'
  /** The connection was cut before a complete answer. */
  | 'CONNECTION_DROPPED'
  /** The answer was larger than the transport accepts. */
  | 'RESPONSE_TOO_LARGE'
  /** The target kept throttling the request (429, 503, a busy fault) past the run's wait (see `throttle.ts`). */
  | 'RATE_LIMITED';

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
  /** Proxy URL for every request (HTTPS is tunnelled with `CONNECT`). */
  readonly proxy?: string;
  /** Without `proxy`: use `HTTPS_PROXY` (or `https_proxy`) when set, for every request. `NO_PROXY` is not read. */
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

/**
 * An answer's text: UTF-16 when its byte order mark or its Content-Type's `charset` says so (an XML document may be
 * UTF-16, XML 1.0 §4.3.3), else UTF-8, the document's and JSON's encoding. The byte order mark is not part of the text.
 */
export function decodeBody(bytes: Buffer, contentType: string | undefined): string {
  const charset = /;\s*charset\s*=\s*"?([\w-]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  if (charset === 'utf-16le' || charset === 'utf-16be') return new TextDecoder(charset).decode(bytes);
  // "utf-16" without a byte order mark: big-endian (RFC 2781 §4.3), unless the text shows otherwise ("<" then 0).
  if (charset === 'utf-16') return new TextDecoder(bytes[0] === 0x3c && bytes[1] === 0 ? 'utf-16le' : 'utf-16be').decode(bytes);
  return bytes.toString('utf8');
}

/** Attempts of one request: the first, and one retry of an idempotent request whose connection was dropped. */
const MAX_ATTEMPTS = 2;

/** How long a connection of the requests that may create a token or a session is kept after its last answer. */
const CREATING_KEEP_ALIVE_MS = 100;

/**
 * Whether a failed attempt may be sent again: a request whose connection was dropped before any response came back —
 * a kept-alive connection the server had closed while the request was on its way, say — when sending it twice cannot
 * create anything twice: a `GET` or `HEAD` (idempotent), or a `POST` that creates nothing the budget counts (a SOAP
 * ping, a business call, a `SessionCloseRQ`: a close that did reach the service is refused the second time, and the
 * caller then asks whether the session is over). Never a token request, a `TokenCreateRQ` or a `SessionCreateRQ` (it
 * may have created a token or a session), never after a time-out (the time limit is spent), never once response
 * headers arrived (the server did answer).
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-9.2.2 (idempotent methods may be retried automatically)
 * @see https://www.rfc-editor.org/rfc/rfc9112#section-9.3.1 (a request "known to be safe to retry")
 */
function retriable(req: HttpRequest, creating: boolean, err: TransportError, answered: boolean): boolean {
  const method = req.method.toUpperCase();
  const once = method === 'GET' || method === 'HEAD' || (method === 'POST' && !creating);
  return once && err.code === 'CONNECTION_DROPPED' && !answered;
}

function proxyFor(options: TransportOptions): string | undefined {
  if (options.proxy) return options.proxy;
  if (!options.useEnvProxy) return undefined;
  return process.env.HTTPS_PROXY ?? process.env.https_proxy ?? undefined;
}

/** The time limit of one request, retry included: when it passes, the attempt in flight is aborted. */
class Deadline {
  passed = false;
  /** Ends the attempt in flight (each attempt sets its own). */
  onPass: ((reason: Error) => void) | undefined;
  readonly #timer: NodeJS.Timeout;

  constructor(ms: number) {
    this.#timer = setTimeout(() => {
      this.passed = true;
      this.onPass?.(this.reason());
    }, ms);
    this.#timer.unref();
  }

  reason(): Error {
    return Object.assign(new Error('the request\'s time limit passed'), { name: 'TimeoutError', code: 'ABORT_ERR' });
  }

  clear(): void {
    clearTimeout(this.#timer);
  }
}

/**
 * The one HTTP transport of the harness (undici): time limits on connect and on the whole exchange, keep-alive,
 * a bounded response size, optional private CA and proxy. Nothing else in the harness opens connections.
 * A request that creates nothing whose connection is dropped before any answer is sent once more (see
 * {@link retriable}); nothing else is retried.
 */
export function createTransport(options: TransportOptions = {}): Transport {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxResponseBytes ?? 4 * 1024 * 1024;
  const ca = options.ca === undefined ? undefined : Array.isArray(options.ca) ? [...options.ca] : [options.ca as string];
  const connect = { timeout: options.connectTimeoutMs ?? Math.min(timeoutMs, 5_000), ...(ca && { ca }) };
  const proxy = proxyFor(options);
  const dispatcher: Dispatcher = proxy
    ? new (proxyAgentClass())({ uri: proxy, requestTls: connect, proxyTls: connect, headersTimeout: timeoutMs, bodyTimeout: timeoutMs })
    : new Agent({ connect, keepAliveTimeout: 4_000, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connections: 16 });
  // A request that may create a token or a session is never sent twice (see {@link retriable}), so it must not go out on
  // a kept-alive connection the server is closing as it is sent (RFC 9112 §9.5 lets a server close an idle connection
  // at any time). It goes through a pool of its own whose connections are kept only {@link CREATING_KEEP_ALIVE_MS}
  // after their last answer: one idle longer is closed on our side first, so the server's idle timer (seconds, in
  // every server and gateway seen) does not meet it. A connection of its own for every such request would be surer,
  // and cost a quarter of a default run. Behind a proxy, the proxy's connection is kept as it is.
  const creatingPool: Dispatcher = proxy
    ? dispatcher
    : new Agent({ connect, keepAliveTimeout: CREATING_KEEP_ALIVE_MS, keepAliveMaxTimeout: CREATING_KEEP_ALIVE_MS, headersTimeout: timeoutMs, bodyTimeout: timeoutMs, connections: 16 });

  /**
   * One attempt, dispatched with a handler that gathers the answer as it comes (undici's `request` would wrap it in a
   * stream read back through an async iterator, a fifth of the client's work per exchange). `progress.answered` says
   * whether response headers arrived before it failed; the deadline ends it when the request's time is up.
   */
  const attempt = (req: HttpRequest, via: Dispatcher, deadline: Deadline, limit: number, progress: { answered: boolean }): Promise<Omit<HttpResponse, 'durationMs'>> =>
    new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let status = 0;
      let headers: Record<string, string> = {};
      let tooLarge: TransportError | undefined;
      let controller: Dispatcher.DispatchController | undefined;
      // When the time is up: the attempt fails at once, and undici drops the request (queued, connecting or sent).
      deadline.onPass = (reason) => {
        controller?.abort(reason);
        reject(reason);
      };
      const handler: Dispatcher.DispatchHandler = {
        onRequestStart(c) {
          controller = c;
          if (deadline.passed) c.abort(deadline.reason());
        },
        onResponseStart(_controller, statusCode, raw) {
          if (statusCode < 200) return; // 1xx: informational, the answer follows
          progress.answered = true;
          status = statusCode;
          headers = {};
          for (const [name, value] of Object.entries(raw)) {
            if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
          }
        },
        onResponseData(controller, chunk) {
          size += chunk.length;
          if (size > maxBytes) {
            tooLarge ??= new TransportError('RESPONSE_TOO_LARGE', `the answer from ${new URL(req.url).origin} is larger than ${maxBytes} bytes`, req.url);
            controller.abort(tooLarge);
            return;
          }
          chunks.push(chunk);
        },
        onResponseEnd() {
          if (tooLarge) return reject(tooLarge);
          let bytes: Buffer = Buffer.concat(chunks);
          const coding = headers['content-encoding']?.trim().toLowerCase();
          if (coding && coding !== 'identity') {
            // A content coding is the service's (or its gateway's) HTTP-level choice, which the document leaves free:
            // the answer is judged on what it says, decoded. (The request asks for none: accept-encoding identity.)
            try {
              bytes = decodeContent(bytes, coding, maxBytes);
            } catch (err) {
              return reject(new TransportError(
                (err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' ? 'RESPONSE_TOO_LARGE' : 'CONNECTION_DROPPED',
                `the answer from ${new URL(req.url).origin} could not be decoded from its content coding "${coding}": ${(err as Error).message}`,
                req.url,
                { cause: err },
              ));
            }
            delete headers['content-encoding'];
            delete headers['content-length'];
          }
          resolve({ status, headers, body: decodeBody(bytes, headers['content-type']) });
        },
        onResponseError(_controller, err) {
          reject(tooLarge ?? err);
        },
      };
      try {
        const url = new URL(req.url);
        via.dispatch({
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: req.method as Dispatcher.HttpMethod,
          headers: withAcceptEncoding(req.headers),
          body: req.body ?? null,
          headersTimeout: limit,
          bodyTimeout: limit,
        }, handler);
      } catch (err) {
        reject(err);
      }
    });

  return {
    async request(req) {
      const limit = req.timeoutMs ?? timeoutMs;
      const started = performance.now();
      // One time limit for the request, retry included.
      const deadline = new Deadline(limit);
      const creating = creates(req) !== undefined;
      try {
        for (let attempts = 1; ; attempts++) {
          const progress = { answered: false };
          try {
            return { ...(await attempt(req, creating ? creatingPool : dispatcher, deadline, limit, progress)), durationMs: performance.now() - started };
          } catch (err) {
            const mapped = toTransportError(deadline.passed ? Object.assign(new Error('aborted'), { code: 'ABORT_ERR', cause: err }) : err, req.url, limit);
            if (attempts < MAX_ATTEMPTS && retriable(req, creating, mapped, progress.answered)) continue;
            throw mapped;
          }
        }
      } finally {
        deadline.clear();
      }
    },
    async close() {
      await dispatcher.close().catch(() => dispatcher.destroy());
      if (creatingPool !== dispatcher) await creatingPool.close().catch(() => creatingPool.destroy());
    },
  };
}

/**
 * The request's headers, asking for no content coding unless the caller named one (`accept-encoding: identity`): with
 * no Accept-Encoding a server may use any coding (RFC 9110 §12.5.3), and the harness compares texts.
 */
function withAcceptEncoding(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out: Record<string, string> = { ...headers };
  if (!Object.keys(out).some((k) => k.toLowerCase() === 'accept-encoding')) out['accept-encoding'] = 'identity';
  return out;
}

/** The bytes of a body sent with a content coding (gzip, deflate, br; several, in the order applied), at most `max`. */
export function decodeContent(bytes: Buffer, coding: string, max: number): Buffer {
  let out = bytes;
  for (const c of coding.split(',').map((x) => x.trim()).filter((x) => x !== '' && x !== 'identity').reverse()) {
    const options = { maxOutputLength: max };
    if (c === 'gzip' || c === 'x-gzip') out = gunzipSync(out, options);
    else if (c === 'deflate') {
      // "deflate" is the zlib format (RFC 9110 §8.4.1.2); some servers send raw deflate.
      try {
        out = inflateSync(out, options);
      } catch {
        out = inflateRawSync(out, options);
      }
    } else if (c === 'br') out = brotliDecompressSync(out, options);
    else throw new Error(`unknown content coding "${c}"`);
  }
  return out;
}
