import { describe, expect, it } from 'vitest';
import type { HttpRequest, HttpResponse, Transport } from '../targets/index.ts';
import { BudgetExhausted, budgetedTransport, creates, LIVE_BUDGET, liveBudget, localLedger } from './budget.ts';

const ok: HttpResponse = { status: 200, headers: {}, body: '', durationMs: 0 };
/** What the service answers: a token or a session where one is asked for (it creates what it is asked to), else `ok`. */
const created = (r: HttpRequest): HttpResponse => creates(r) === undefined ? ok
  : r.url.endsWith('/v2/auth/token') ? { ...ok, body: '{"access_token":"T1RLAQ-x","token_type":"bearer","expires_in":604800}' }
    : { ...ok, body: '<soap-env:Envelope><soap-env:Header><wsse:BinarySecurityToken>Shared/IDL:x</wsse:BinarySecurityToken></soap-env:Header></soap-env:Envelope>' };
function fake(answer: (r: HttpRequest) => HttpResponse = created): Transport & { seen: HttpRequest[] } {
  const seen: HttpRequest[] = [];
  return { seen, request: async (r) => (seen.push(r), answer(r)), close: async () => undefined };
}
const token: HttpRequest = { method: 'POST', url: 'https://x.test/v2/auth/token', body: 'grant_type=client_credentials' };
const soap = (action: string): HttpRequest => ({ method: 'POST', url: 'https://x.test/websvc', body: `<soap-env:Envelope><eb:Action>${action}</eb:Action></soap-env:Envelope>` });

describe('live-run budget', () => {
  it('recognises token- and session-creating requests', () => {
    expect(creates(token)).toBe('token');
    expect(creates(soap('TokenCreateRQ'))).toBe('token');
    expect(creates(soap('SessionCreateRQ'))).toBe('session');
    expect(creates(soap('OTA_PingRQ'))).toBeUndefined();
    expect(creates({ method: 'GET', url: 'https://x.test/v1/lists/supported/shop/themes' })).toBeUndefined();
  });

  it('refuses the token request past the limit before sending it, naming the option to raise it', async () => {
    const inner = fake();
    const budget = { tokens: 2, sessions: 1, requestsPerSecond: 1000, concurrency: 4 };
    const ledger = localLedger(budget);
    const t = budgetedTransport(inner, budget, ledger, () => true);
    await t.request(token);
    await t.request(soap('TokenCreateRQ'));
    const err = await t.request(token).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BudgetExhausted);
    expect((err as BudgetExhausted).code).toBe('BUDGET_EXHAUSTED');
    expect((err as Error).message).toContain('--max-tokens');
    expect(inner.seen).toHaveLength(2);
    expect(ledger.used).toEqual({ tokens: 2, sessions: 0 });
  });

  it('does not count a refused request against the budget (it created nothing), and keeps the last tokens for root checks', async () => {
    const refused = (r: HttpRequest): HttpResponse => (creates(r) === 'token' ? { ...ok, status: 401, body: '{"error":"invalid_client"}' } : created(r));
    const budget = { tokens: 8, sessions: 1, requestsPerSecond: 1000, concurrency: 4 };
    const ledger = localLedger(budget);
    const inner = fake(refused);
    const t = budgetedTransport(inner, budget, ledger);
    for (let i = 0; i < 20; i++) await t.request(token);
    expect(inner.seen).toHaveLength(20);
    expect(ledger.used.tokens).toBe(0);
    // A quarter of a small budget (2 of 8) is kept for the root checks: the others stop at 6 tokens created.
    let root = false;
    const served = budgetedTransport(fake(), budget, ledger, () => root);
    for (let i = 0; i < 6; i++) await served.request(token);
    await expect(served.request(token)).rejects.toBeInstanceOf(BudgetExhausted);
    root = true;
    await served.request(token);
    await served.request(token);
    await expect(served.request(token)).rejects.toBeInstanceOf(BudgetExhausted);
    expect(ledger.used.tokens).toBe(8);
  });

  it('counts sessions apart from tokens', async () => {
    const t = budgetedTransport(fake(), { tokens: 5, sessions: 1, requestsPerSecond: 1000, concurrency: 4 });
    await t.request(soap('SessionCreateRQ'));
    await expect(t.request(soap('SessionCreateRQ'))).rejects.toMatchObject({ code: 'BUDGET_EXHAUSTED', resource: 'sessions' });
    await t.request(soap('OTA_PingRQ'));
  });

  it('keeps at most `concurrency` requests in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const slow: Transport = {
      request: async () => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        return ok;
      },
      close: async () => undefined,
    };
    const t = budgetedTransport(slow, { tokens: 99, sessions: 99, requestsPerSecond: 10_000, concurrency: 2 });
    await Promise.all(Array.from({ length: 8 }, () => t.request({ method: 'GET', url: 'https://x.test/' })));
    expect(peak).toBe(2);
  });
});

describe('liveBudget', () => {
  it('is LIVE_BUDGET, with 4 sessions more for each declared pool slot past 4 when opt-in rules run', () => {
    expect(liveBudget(undefined, true)).toEqual(LIVE_BUDGET);
    expect(liveBudget({ sessionPoolSize: 4 }, true)).toEqual(LIVE_BUDGET);
    expect(liveBudget({ sessionPoolSize: 10 }, false)).toEqual(LIVE_BUDGET);
    expect(liveBudget({ sessionPoolSize: 10 }, true)).toEqual({ ...LIVE_BUDGET, sessions: LIVE_BUDGET.sessions + 24 });
  });
});
