import { DEFAULT_FAULT_CODES, type FaultCodes } from '../classify/fault-codes.ts';
import { STACK_MARKERS } from '../classify/fault-codes.ts';
import { TransportError, type HttpRequest, type HttpResponse, type Transport } from './transport.ts';

/**
 * Backpressure, owned by the transport: an answer that says "not processed now" — `429` (any body, with or without
 * `Retry-After`), `503` (any body), or a SOAP busy fault — is never handed to a check as the service's answer to its
 * request. It is waited out (`Retry-After` when given, else a bounded exponential backoff with jitter), the same
 * request is sent again, and the rest of the run is paced slower (adaptive: slower on every throttle, faster again
 * gently on every answer that was not). A request still throttled after {@link ThrottleOptions.maxWaitMs} is a
 * {@link TransportError} with the code `RATE_LIMITED`: the check ends `error`, never `fail`, `warn` or `pass`.
 *
 * The document says nothing about throttling: a service (or the gateway in front of it) may throttle, and what a
 * throttled answer looks like says nothing about any rule (ARCHITECTURE.md, "Deployed targets").
 */

export interface ThrottleOptions {
  /** Longest time one request may spend waiting out throttles, in ms (default 60 s). */
  readonly maxWaitMs?: number;
  /** First backoff without `Retry-After`, in ms (doubled at each throttle of the same request). */
  readonly baseBackoffMs?: number;
  /** Longest single backoff without `Retry-After`, in ms. */
  readonly maxBackoffMs?: number;
  /** Longest pause between requests the adaptive pace may reach, in ms. */
  readonly maxIntervalMs?: number;
  /** The pause a first throttle puts between requests, in ms (doubled by each further one). */
  readonly minIntervalMs?: number;
  /** The target's fault codes (its own busy codes among them). */
  readonly faultCodes?: FaultCodes;
  /** For tests: the jitter source (0 ≤ x < 1) and the clock. */
  readonly random?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly now?: () => number;
}

/** What the transport met of throttling: counted per process, read per check (see {@link throttleScope}). */
export interface ThrottleStats {
  /** Answers that were throttles (429, 503, busy faults), every attempt counted. */
  throttled: number;
  /** Time spent waiting them out, in ms. */
  waitedMs: number;
  /** Throttle statuses seen, by status (`busy` for a SOAP busy fault). */
  readonly statuses: Record<string, number>;
  /** `Retry-After` values seen (as sent, at most 8 distinct). */
  readonly retryAfter: string[];
  /** The pause the adaptive pace puts between requests now, in ms (0: not slowed). */
  intervalMs: number;
  /** Requests given up as `RATE_LIMITED`. */
  gaveUp: number;
}

export const emptyThrottleStats = (): ThrottleStats => ({ throttled: 0, waitedMs: 0, statuses: {}, retryAfter: [], intervalMs: 0, gaveUp: 0 });

/** Why an answer is a throttle, or `undefined` when it is the service's answer. */
export function throttleOf(req: Pick<HttpRequest, 'body'>, res: Pick<HttpResponse, 'status' | 'body'>, codes: FaultCodes = DEFAULT_FAULT_CODES): '429' | '503' | 'busy' | undefined {
  if (res.status === 429) return '429';
  if (res.status === 503) return '503';
  if (req.body !== undefined && /Envelope/.test(req.body) && /Fault/.test(res.body) && isBusyFault(res.body, codes)) return 'busy';
  return undefined;
}

/** A SOAP fault whose code (by its local part) is a busy one, or whose StackTrace carries a busy marker. */
export function isBusyFault(body: string, codes: FaultCodes = DEFAULT_FAULT_CODES): boolean {
  const code = /<(?:[\w.-]+:)?faultcode\b[^>]*>\s*([^<]*?)\s*<\//.exec(body)?.[1];
  if (code === undefined) return false;
  const local = (c: string) => c.slice(c.indexOf(':') + 1);
  if (codes.busy.some((c) => local(c) === local(code))) return true;
  // A fault with a code of another list is what that list says, whatever its StackTrace.
  const lists = [codes.invalidToken, codes.authentication, codes.notAuthorized, codes.poolFull, codes.unknownAction];
  if (lists.some((l) => l.some((c) => local(c) === local(code)))) return false;
  const busy = STACK_MARKERS.find((m) => m.kind === 'busy');
  const first = STACK_MARKERS.find((m) => m.marker.test(body));
  return busy !== undefined && first === busy;
}

/** `Retry-After` in ms: delay-seconds or an HTTP date (RFC 9110 §10.2.3); `undefined` when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The error of a request that was still throttled when its wait ran out. */
export function rateLimited(req: HttpRequest, status: string, retryAfter: string | undefined, waitedMs: number, attempts: number): TransportError {
  const where = (() => {
    try {
      return new URL(req.url).origin;
    } catch {
      return req.url;
    }
  })();
  const said = status === 'busy' ? 'a SOAP busy fault' : `HTTP ${status}`;
  return new TransportError(
    'RATE_LIMITED',
    `${where} kept throttling the request: ${said}${retryAfter !== undefined ? ` with Retry-After: ${retryAfter}` : ' without Retry-After'} on each of ${attempts} attempts, ${(waitedMs / 1000).toFixed(1)} s waited (raise the wait with --throttle-wait <seconds>, or run when the environment is quieter)`,
    req.url,
  );
}

/** This process's throttle counters: the run's (`total`) and the current check's (`check`). */
const total = emptyThrottleStats();
let check: ThrottleStats | undefined;

/** Starts counting a check's throttles (the check runner calls it); returns what the previous one counted. */
export function throttleScope(): ThrottleStats {
  const ended = check ?? emptyThrottleStats();
  check = emptyThrottleStats();
  check.intervalMs = total.intervalMs;
  return ended;
}

/** The counters of the current check, ended: the pace is the transport's pace now. */
export function endThrottleScope(): ThrottleStats | undefined {
  const ended = check;
  check = undefined;
  if (!ended) return undefined;
  ended.intervalMs = total.intervalMs;
  return ended;
}

/** The whole process's counters (for tests and the bench). */
export function processThrottleStats(): Readonly<ThrottleStats> {
  return total;
}

function count(status: string, retryAfter: string | undefined): void {
  for (const s of check ? [total, check] : [total]) {
    s.throttled++;
    s.statuses[status] = (s.statuses[status] ?? 0) + 1;
    if (retryAfter !== undefined && !s.retryAfter.includes(retryAfter) && s.retryAfter.length < 8) s.retryAfter.push(retryAfter);
  }
}

function waited(ms: number): void {
  for (const s of check ? [total, check] : [total]) s.waitedMs += ms;
}

/** A transport that waits out throttles and resends (see the module's comment). */
export function throttledTransport(inner: Transport, options: ThrottleOptions = {}): Transport & { readonly stats: () => Readonly<ThrottleStats> } {
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  const base = options.baseBackoffMs ?? 250;
  const maxBackoff = options.maxBackoffMs ?? 8_000;
  const maxInterval = options.maxIntervalMs ?? 2_000;
  const minInterval = options.minIntervalMs ?? 100;
  const codes = options.faultCodes ?? DEFAULT_FAULT_CODES;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  /** The adaptive pace: a pause between requests, longer after a throttle, shorter after each plain answer. */
  let interval = 0;
  let nextAt = 0;
  const own = emptyThrottleStats();
  const setInterval = (ms: number) => {
    interval = ms < minInterval / 20 ? 0 : Math.min(maxInterval, ms);
    total.intervalMs = own.intervalMs = interval;
    if (check) check.intervalMs = interval;
  };
  const pace = async () => {
    if (interval === 0) return;
    const t = now();
    const at = Math.max(t, nextAt);
    nextAt = at + interval;
    if (at > t) await sleep(at - t);
  };
  return {
    stats: () => own,
    async request(req) {
      let waitedMs = 0;
      for (let attempt = 1; ; attempt++) {
        await pace();
        const res = await inner.request(req);
        const status = throttleOf(req, res, codes);
        if (status === undefined) {
          if (interval > 0) setInterval(interval * 0.8);
          return res;
        }
        const retryAfter = res.headers['retry-after'];
        count(status, retryAfter);
        own.throttled++;
        own.statuses[status] = (own.statuses[status] ?? 0) + 1;
        setInterval(Math.max(interval * 2, minInterval));
        const hinted = retryAfterMs(retryAfter, now());
        const backoff = Math.min(maxBackoff, base * 2 ** (attempt - 1));
        const wait = hinted ?? backoff / 2 + random() * (backoff / 2);
        if (waitedMs + wait > maxWaitMs) {
          own.gaveUp++;
          total.gaveUp++;
          if (check) check.gaveUp++;
          throw rateLimited(req, status, retryAfter, waitedMs, attempt);
        }
        await sleep(wait);
        waitedMs += wait;
        own.waitedMs += wait;
        waited(wait);
      }
    },
    close: () => inner.close(),
  };
}
