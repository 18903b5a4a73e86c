import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { basicAuthorization, clientIdFor } from '../credentials/index.ts';
import type { SimAccount } from './accounts.ts';
import { ManualClock } from './clock.ts';
import { SimCore } from './core.ts';
import { defaultAccounts } from './default-accounts.ts';
import type { DefectId } from './defects.ts';
import { createSimHandlers, inProcessUrls } from './msw.ts';

const THEMES = '/v1/lists/supported/shop/themes';
const accounts = defaultAccounts(5);

function simCore(defectIds: readonly DefectId[] = []): SimCore {
  return new SimCore({ clock: new ManualClock(), accounts: accounts.accounts, defects: defectIds, seed: 5 });
}

const core = simCore();
const server = setupServer(...createSimHandlers(core));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function tokenRequest(base: string, account: SimAccount, init: RequestInit = {}): Promise<Response> {
  return fetch(`${base}/v2/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Authorization: basicAuthorization({ ...clientIdFor(account), password: account.password }) },
    body: 'grant_type=client_credentials',
    ...init,
  });
}

async function accessToken(res: Response): Promise<string> {
  const body = (await res.json()) as { access_token?: unknown };
  if (typeof body.access_token !== 'string') throw new Error(`no access_token (status ${res.status})`);
  return body.access_token;
}

describe('createSimHandlers with setupServer', () => {
  it('answers a token request on the in-process CERT address through global fetch', async () => {
    const res = await tokenRequest(inProcessUrls.cert.restBaseUrl, accounts.main.cert);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json;charset=UTF-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({ access_token: expect.stringMatching(/^T1RLAQ[A-Za-z0-9+/]{118}\*$/), token_type: 'bearer', expires_in: 604800 });
    expect(core.events.since(0).at(-1)).toMatchObject({ env: 'cert', method: 'POST', path: '/v2/auth/token', outcome: 'token-issued', body: 'grant_type=client_credentials' });
    expect(core.events.since(0).at(-1)?.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('serves PROD as another environment, with its own accounts and tokens', async () => {
    expect(new URL(inProcessUrls.prod.restBaseUrl).origin).not.toBe(new URL(inProcessUrls.cert.restBaseUrl).origin);
    const certToken = await accessToken(await tokenRequest(inProcessUrls.cert.restBaseUrl, accounts.main.cert));
    const prodToken = await accessToken(await tokenRequest(inProcessUrls.prod.restBaseUrl, accounts.main.prod));

    const onProd = await fetch(`${inProcessUrls.prod.restBaseUrl}${THEMES}`, { headers: { Authorization: `Bearer ${certToken}` } });
    expect(onProd.status).toBe(401);
    expect(await onProd.json()).toMatchObject({ errorCode: 'ERR.2SG.SEC.INVALID_CREDENTIALS' });
    expect(core.events.since(0).at(-1)).toMatchObject({ env: 'prod', outcome: 'api-refused-token', detail: 'other-environment' });

    expect((await fetch(`${inProcessUrls.prod.restBaseUrl}${THEMES}`, { headers: { Authorization: `Bearer ${prodToken}` } })).status).toBe(200);
    expect((await tokenRequest(inProcessUrls.prod.restBaseUrl, accounts.certOnly)).status).toBe(401);
  });

  it('hands the path and query string to the core and answers the SOAP origin too', async () => {
    const res = await fetch(`${inProcessUrls.cert.restBaseUrl}/v5.1.0/shop/altdates/flights?mode=live`);
    expect(res.status).toBe(401);
    expect(core.events.since(0).at(-1)).toMatchObject({ env: 'cert', method: 'GET', path: '/v5.1.0/shop/altdates/flights' });

    await fetch(inProcessUrls.prod.soapUrl, { method: 'POST', headers: { 'Content-Type': 'text/xml' }, body: '<x/>' });
    expect(core.events.since(0).at(-1)).toMatchObject({ env: 'prod', protocol: 'soap', method: 'POST', path: '/websvc', body: '<x/>' });
  });

  it('turns the drop defect into a network error of fetch', async () => {
    const faulty = simCore(['err07-drop-on-bad-content-type']);
    server.use(...createSimHandlers(faulty));
    const err = await tokenRequest(inProcessUrls.cert.restBaseUrl, accounts.main.cert, { headers: { 'Content-Type': 'application/json' }, body: '{}' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect((err as TypeError).message).toBe('Failed to fetch');
    expect(faulty.events.since(0).map((e) => e.outcome)).toEqual(['no-answer']);
  });

  it('leaves a request to the hang defect unanswered until the caller gives up', async () => {
    const faulty = simCore(['err07-hang-on-bad-grant-type']);
    server.use(...createSimHandlers(faulty));
    const controller = new AbortController();
    const pending = tokenRequest(inProcessUrls.cert.restBaseUrl, accounts.main.cert, { body: 'grant_type=password', signal: controller.signal }).catch((e: unknown) => e);
    await expect.poll(() => faulty.events.lastSeq, { timeout: 10_000 }).toBe(1);
    controller.abort();
    expect(await pending).toMatchObject({ name: 'AbortError' });
  });

  it('refuses a request to an address it does not serve, so nothing leaves the process', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const err = await fetch('https://api.elsewhere.test/v2/auth/token', { method: 'POST' }).catch((e: unknown) => e);
      expect(err).toMatchObject({ name: 'InternalError', message: '[MSW] Cannot bypass a request when using the "error" strategy for the "onUnhandledRequest" option.' });
      expect(printed.mock.calls.flat().join(' ')).toContain('POST https://api.elsewhere.test/v2/auth/token');
    } finally {
      printed.mockRestore();
    }
  });
});
