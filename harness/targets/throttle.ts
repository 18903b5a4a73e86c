import { DEFAULT_FAULT_CODES, type FaultCodes } from '../classify/fault-codes.ts';
import { classifySoap } from '../classify/soap-answer.ts';
import { parseEnvelope } from '../soap/parse-envelope.ts';
import { creates } from './creates.ts';
import { TransportError, type HttpRequest, type HttpResponse, type Transport } from './transport.ts';
import { onNewRun } from '../run-scope.ts';

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
  /** Gateway errors (502, 504) answered to a request that was then sent again, by status (see {@link gatewayError}). */
  readonly gatewayResent: Record<string, number>;
}

export const emptyThrottleStats = (): ThrottleStats => ({ throttled: 0, waitedMs: 0, statuses: {}, retryAfter: [], intervalMs: 0, gaveUp: 0, gatewayResent: {} });

/** How many times a request answered with a gateway's or server's error is sent again before the answer is taken as it is. */
export const SERVER_ERROR_RESENDS = 2;

/**
 * A gateway's error: 502 (Bad Gateway: "received an invalid response from an inbound server") or 504 (Gateway
 * Timeout: "did not receive a timely response from an upstream server"), RFC 9110 §15.6.3 and §15.6.5, whatever the
 * body. The service behind did not answer the request, or not in time: the answer is the transport's trouble, not the
 * service's answer to it. The document gives the service neither status.
 */
export function gatewayError(res: Pick<HttpResponse, 'status'>): boolean {
  return res.status === 502 || res.status === 504;
}

/** Why an answer is a throttle, or `undefined` when it is the service's answer. */
export function throttleOf(req: Pick<HttpRequest, 'body'>, res: Pick<HttpResponse, 'status' | 'body'>, codes: FaultCodes = DEFAULT_FAULT_CODES): '429' | '503' | 'busy' | undefined {
  if (res.status === 429) return '429';
  if (res.status === 503) return '503';
  if (req.body !== undefined && /Envelope/.test(req.body) && /Fault/.test(res.body) && isBusyFault(res.body, codes)) return 'busy';
  return undefined;
}

/**
 * An answer that is the transport's, not the service's: a throttle ({@link throttleOf}) or a gateway's error
 * ({@link gatewayError}). Where the harness sends the requests, the transport waits these out or sends the request
 * again; in observed traffic (the application's own requests) they are never judged as the service's answer.
 */
export function transportAnswer(req: Pick<HttpRequest, 'body'>, res: Pick<HttpResponse, 'status' | 'body'>, codes: FaultCodes = DEFAULT_FAULT_CODES): boolean {
  return throttleOf(req, res, codes) !== undefined || gatewayError(res);
}

/** A SOAP fault the one classifier (harness/classify) reads as busy: by its code, else its StackTrace marker. */
export function isBusyFault(body: string, codes: FaultCodes = DEFAULT_FAULT_CODES): boolean {
  const parsed = parseEnvelope(body);
  return parsed.ok && classifySoap({ status: 500, envelope: parsed.envelope }, codes).kind === 'busy';
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

/** The current check's throttle counters, and the pace this process's transport is at. */
let check: ThrottleStats | undefined;
let pace = 0;
onNewRun(() => {
  check = undefined;
  pace = 0;
});

/** Starts counting a check's throttles (the check runner calls it). */
export function throttleScope(): void {
  check = emptyThrottleStats();
}

/** The counters of the current check, ended: the pace is the transport's pace now. */
export function endThrottleScope(): ThrottleStats | undefined {
  const ended = check;
  check = undefined;
  if (ended) ended.intervalMs = pace;
  return ended;
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
  /** The transport's own counters, and the current check's. */
  const counters = () => (check ? [own, check] : [own]);
  const setInterval = (ms: number) => {
    interval = ms < minInterval / 20 ? 0 : Math.min(maxInterval, ms);
    pace = own.intervalMs = interval;
    if (check) check.intervalMs = interval;
  };
  const waitTurn = async () => {
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
      // When the first throttled answer came: the wait is the time since then (pacing and the requests included), not
      // only the sleeps, so that a `Retry-After: 0` (or a date past) cannot keep a request going for ever.
      let throttledSince: number | undefined;
      let resent = 0;
      for (let attempt = 1; ; attempt++) {
        await waitTurn();
        const res = await inner.request(req);
        const status = throttleOf(req, res, codes);
        if (status === undefined && gatewayError(res) && resent < SERVER_ERROR_RESENDS && creates(req) !== 'session') {
          // A gateway's hiccup: the same request once more, after a short pause; one that keeps coming back is the
          // answer (marked `resent`), judged like any other. Not a SessionCreateRQ: a session opened behind the page
          // would hold a pool slot until its timeout; `sessionCreate` resends it and counts the page
          // (harness/checks/soap.ts).
          resent++;
          for (const s of counters()) s.gatewayResent[res.status] = (s.gatewayResent[res.status] ?? 0) + 1;
          await sleep(base / 2 + random() * (base / 2));
          continue;
        }
        if (status === undefined) {
          if (interval > 0) setInterval(interval * 0.8);
          return resent > 0 ? { ...res, resent } : res;
        }
        const retryAfter = res.headers['retry-after'];
        for (const s of counters()) {
          s.throttled++;
          s.statuses[status] = (s.statuses[status] ?? 0) + 1;
          if (retryAfter !== undefined && !s.retryAfter.includes(retryAfter) && s.retryAfter.length < 8) s.retryAfter.push(retryAfter);
        }
        setInterval(Math.max(interval * 2, minInterval));
        const at = now();
        throttledSince ??= at;
        waitedMs = Math.max(waitedMs, at - throttledSince);
        const hinted = retryAfterMs(retryAfter, at);
        const backoff = Math.min(maxBackoff, base * 2 ** (attempt - 1));
        // A hint of no wait at all (`Retry-After: 0`, a date past) still gets the backoff's least wait.
        const wait = hinted === undefined ? backoff / 2 + random() * (backoff / 2) : Math.max(hinted, backoff / 2);
        if (waitedMs + wait > maxWaitMs) {
          for (const s of counters()) s.gaveUp++;
          throw rateLimited(req, status, retryAfter, waitedMs, attempt);
        }
        await sleep(wait);
        waitedMs = Math.max(waitedMs + wait, now() - throttledSince);
        for (const s of counters()) s.waitedMs += wait;
      }
    },
    close: () => inner.close(),
  };
}
