import { describe, expect, it } from 'vitest';
import { endThrottleScope, isBusyFault, retryAfterMs, throttledTransport, throttleOf, throttleScope } from './throttle.ts';
import { TransportError, type HttpRequest, type HttpResponse, type Transport } from './transport.ts';

const fault = (code: string, stack = '') =>
  `<soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><soap-env:Body><soap-env:Fault><faultcode>soap-env:${code}</faultcode><faultstring>x</faultstring><detail><StackTrace>${stack}</StackTrace></detail></soap-env:Fault></soap-env:Body></soap-env:Envelope>`;
const SOAP_REQ: HttpRequest = { method: 'POST', url: 'http://127.0.0.1:9/websvc', body: '<soap-env:Envelope>…</soap-env:Envelope>' };
const REST_REQ: HttpRequest = { method: 'POST', url: 'http://127.0.0.1:9/v2/auth/token', body: 'grant_type=client_credentials' };

const answer = (status: number, body = '', headers: Record<string, string> = {}): HttpResponse => ({ status, body, headers, durationMs: 1 });

/** A transport that answers from a script, and a clock that moves only when slept. */
function scripted(answers: HttpResponse[]) {
  let t = 1_000_000;
  const sent: HttpRequest[] = [];
  const slept: number[] = [];
  const inner: Transport = {
    async request(req) {
      sent.push(req);
      const next = answers.length > 1 ? answers.shift() : answers[0];
      if (!next) throw new Error('script ended');
      return next;
    },
    async close() {},
  };
  const clock = {
    now: () => t,
    sleep: async (ms: number) => {
      slept.push(ms);
      t += ms;
    },
    random: () => 0.5,
  };
  return { inner, sent, slept, clock };
}

describe('throttleOf', () => {
  it('reads 429 and 503 as throttles whatever the body, and a busy SOAP fault by its code or StackTrace marker', () => {
    expect(throttleOf(REST_REQ, answer(429, '<html>slow down</html>'))).toBe('429');
    expect(throttleOf(REST_REQ, answer(503, '<html><body>503 Service Temporarily Unavailable</body></html>'))).toBe('503');
    expect(throttleOf(SOAP_REQ, answer(500, fault('Server.SystemFailure')))).toBe('busy');
    expect(throttleOf(SOAP_REQ, answer(500, fault('Server.Whatever', 'errors.session.USG_SERVICE_IS_BUSY')))).toBe('busy');
  });

  it('leaves every other answer to the checks: refusals, pool-full, other faults, 500 pages, 401s', () => {
    expect(throttleOf(SOAP_REQ, answer(500, fault('Client.InvalidSecurityToken', 'errors.session.USG_INVALID_SECURITY_TOKEN')))).toBeUndefined();
    expect(throttleOf(SOAP_REQ, answer(500, fault('Client.ReachedTALimit', 'USG_RESOURCE_UNAVAILABLE')))).toBeUndefined();
    // A code of another list wins over a busy marker in its StackTrace.
    expect(throttleOf(SOAP_REQ, answer(500, fault('Client.InvalidSecurityToken', 'USG_SERVICE_IS_BUSY')))).toBeUndefined();
    expect(throttleOf(SOAP_REQ, answer(500, '<html>Internal error</html>'))).toBeUndefined();
    expect(throttleOf(REST_REQ, answer(401, '{"error":"invalid_client"}'))).toBeUndefined();
    expect(throttleOf(REST_REQ, answer(500, fault('Server.SystemFailure')))).toBeUndefined(); // not a SOAP request
    expect(isBusyFault('<html/>')).toBe(false);
  });
});

describe('retryAfterMs', () => {
  it('reads delay-seconds and an HTTP date, and nothing else', () => {
    expect(retryAfterMs('3', 0)).toBe(3000);
    expect(retryAfterMs(' 0 ', 0)).toBe(0);
    const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    expect(retryAfterMs('Wed, 21 Oct 2026 07:28:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('soon', 0)).toBeUndefined();
    expect(retryAfterMs(undefined, 0)).toBeUndefined();
  });
});

describe('throttledTransport', () => {
  it('waits Retry-After, sends the same request again and hands on only the answer that was not throttled', async () => {
    const s = scripted([answer(429, 'Too Many Requests', { 'retry-after': '2' }), answer(200, '{"access_token":"t"}')]);
    const t = throttledTransport(s.inner, s.clock);
    throttleScope();
    const res = await t.request(REST_REQ);
    const stats = endThrottleScope();
    expect(res.status).toBe(200);
    expect(s.sent).toEqual([REST_REQ, REST_REQ]);
    expect(s.slept[0]).toBe(2000);
    expect(stats).toMatchObject({ throttled: 1, waitedMs: 2000, statuses: { 429: 1 }, retryAfter: ['2'], gaveUp: 0 });
  });

  it('backs off exponentially with jitter when no Retry-After is given (a 503 HTML page)', async () => {
    const page = answer(503, '<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>', { 'content-type': 'text/html' });
    const s = scripted([page, page, page, answer(200, 'ok')]);
    const t = throttledTransport(s.inner, { ...s.clock, baseBackoffMs: 200 });
    const res = await t.request(REST_REQ);
    expect(res.status).toBe(200);
    // random() = 0.5: each wait is 3/4 of the backoff, which doubles: 200, 400, 800 (the pace's pauses come between).
    const backoffs = s.slept.filter((ms) => ms === 150 || ms === 300 || ms === 600);
    expect(backoffs).toEqual([150, 300, 600]);
    expect(t.stats()).toMatchObject({ throttled: 3, statuses: { 503: 3 } });
  });

  it('retries a SOAP busy fault, and returns a refusal fault at once', async () => {
    const s = scripted([answer(500, fault('Server.SystemFailure')), answer(500, fault('Client.InvalidSecurityToken'))]);
    const t = throttledTransport(s.inner, s.clock);
    const res = await t.request(SOAP_REQ);
    expect(res.body).toContain('Client.InvalidSecurityToken');
    expect(s.sent).toHaveLength(2);
  });

  it('gives up with RATE_LIMITED, naming the status, the Retry-After and the time waited, once the wait is spent', async () => {
    const s = scripted([answer(429, '', { 'retry-after': '1' })]);
    const t = throttledTransport(s.inner, { ...s.clock, maxWaitMs: 5_000 });
    const err = await t.request(REST_REQ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).code).toBe('RATE_LIMITED');
    // The time waited counts from the first throttle, the pace's pauses included: 5 attempts fit in 5 s.
    expect((err as Error).message).toMatch(/HTTP 429 with Retry-After: 1 on each of 5 attempts, 4\.0 s waited/);
    expect(s.sent).toHaveLength(5);
    expect(t.stats().gaveUp).toBe(1);
  });

  it('gives up on Retry-After: 0 (or a date past) sent for ever, counting the time since the first throttle, not only the sleeps', async () => {
    const s = scripted([answer(429, '', { 'retry-after': '0' })]);
    const t = throttledTransport(s.inner, { ...s.clock, maxWaitMs: 5_000 });
    const err = await t.request(REST_REQ).catch((e: unknown) => e);
    expect((err as TransportError).code).toBe('RATE_LIMITED');
    // Each hint of no wait still waits the backoff's least (half of it), which doubles: the attempts are few.
    expect(s.sent.length).toBeLessThan(12);
  });

  it('slows the pace after a throttle and speeds up again gently after plain answers', async () => {
    const s = scripted([answer(429, '', { 'retry-after': '0' }), answer(200, 'ok')]);
    const t = throttledTransport(s.inner, s.clock);
    await t.request(REST_REQ);
    const slowed = t.stats().intervalMs;
    expect(slowed).toBe(80); // doubled to 100 by the throttle, then ×0.8 for the answer that followed
    for (let i = 0; i < 3; i++) await t.request(REST_REQ);
    const after = t.stats().intervalMs;
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThan(slowed);
    for (let i = 0; i < 40; i++) await t.request(REST_REQ);
    expect(t.stats().intervalMs).toBe(0);
  });
});

describe('gateway errors (502, 504)', () => {
  const page = (status: number) => answer(status, `<html><body><h1>${status}</h1></body></html>`, { 'content-type': 'text/html' });
  const CREATE: HttpRequest = { method: 'POST', url: 'http://127.0.0.1:9/websvc', body: '<soap-env:Envelope><soap-env:Header><eb:MessageHeader><eb:Action>SessionCreateRQ</eb:Action></eb:MessageHeader></soap-env:Header></soap-env:Envelope>' };

  it('sends a request a gateway answered 502 or 504 again, and hands on the next answer marked with the resends; counted per check', async () => {
    for (const status of [502, 504]) {
      const s = scripted([page(status), answer(200, '{"access_token":"t"}')]);
      throttleScope();
      const res = await throttledTransport(s.inner, s.clock).request(REST_REQ);
      const stats = endThrottleScope();
      expect([res.status, res.resent, s.sent.length]).toEqual([200, 1, 2]);
      expect(stats?.gatewayResent).toEqual({ [status]: 1 });
      expect(stats?.throttled).toBe(0);
    }
  });

  it('sends it at most twice more: a page that came back every time is the answer, marked resent twice', async () => {
    const s = scripted([page(502)]);
    const res = await throttledTransport(s.inner, s.clock).request(SOAP_REQ);
    expect([res.status, res.resent, s.sent.length]).toEqual([502, 2, 3]);
  });

  it('leaves a SessionCreateRQ, a 500 page and an answer without errors as they are', async () => {
    for (const [req, res] of [[CREATE, page(502)], [SOAP_REQ, page(500)], [REST_REQ, answer(200, '{}')]] as const) {
      const s = scripted([res, answer(200, 'never sent')]);
      const got = await throttledTransport(s.inner, s.clock).request(req);
      expect([got.status, got.resent, s.sent.length]).toEqual([res.status, undefined, 1]);
    }
  });
});
