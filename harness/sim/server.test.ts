import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { basicAuthorization, clientIdFor } from '../credentials/index.ts';
import { createTransport, type HttpResponse, type Transport, type TransportOptions } from '../targets/transport.ts';
import type { SimAccount } from './accounts.ts';
import { ManualClock } from './clock.ts';
import { SimCore } from './core.ts';
import { defaultAccounts } from './default-accounts.ts';
import type { DefectId } from './defects.ts';
import { startSimServer, type SimServerOptions } from './server.ts';

const START = Date.UTC(2026, 0, 1);
const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json;charset=UTF-8';
const THEMES = '/v1/lists/supported/shop/themes';
const ORIGIN = /^http:\/\/127\.0\.0\.1:\d+$/;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A simulator on loopback; `options` may be a function of the simulator's clock (to hand it to the control endpoint). */
async function serve(options: SimServerOptions | ((clock: ManualClock) => SimServerOptions) = {}, defectIds: readonly DefectId[] = []) {
  const clock = new ManualClock(START);
  const accounts = defaultAccounts(3);
  const core = new SimCore({ clock, accounts: accounts.accounts, defects: defectIds, seed: 3 });
  const server = await startSimServer(core, typeof options === 'function' ? options(clock) : options);
  closers.push(() => server.close());
  return { clock, accounts, core, server };
}

function transport(options: TransportOptions = {}): Transport {
  const t = createTransport({ timeoutMs: 10_000, ...options });
  closers.push(() => t.close());
  return t;
}

function auth(account: Pick<SimAccount, 'epr' | 'pcc' | 'password' | 'restDomain'>): string {
  return basicAuthorization({ ...clientIdFor(account), password: account.password });
}

function tokenRequest(t: Transport, base: string, authorization: string, extra: { body?: string; contentType?: string; timeoutMs?: number } = {}): Promise<HttpResponse> {
  return t.request({
    method: 'POST',
    url: `${base}/v2/auth/token`,
    headers: { 'content-type': extra.contentType ?? FORM, authorization },
    body: extra.body ?? 'grant_type=client_credentials',
    ...(extra.timeoutMs !== undefined && { timeoutMs: extra.timeoutMs }),
  });
}

function accessToken(res: HttpResponse): string {
  const token = (JSON.parse(res.body) as { access_token?: unknown }).access_token;
  if (typeof token !== 'string') throw new Error(`no access_token in ${res.status} ${res.body}`);
  return token;
}

async function control(t: Transport, controlUrl: string | undefined, method: string, route: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  if (!controlUrl) throw new Error('the control endpoint is not served');
  const res = await t.request({
    method,
    url: `${controlUrl}${route}`,
    ...(body !== undefined && { headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  expect(res.headers['content-type']).toBe('application/json');
  return { status: res.status, body: JSON.parse(res.body) as unknown };
}

/** Sends raw bytes and reads the whole answer (the connection is closed by the server). */
function rawRequest(base: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let out = '';
    socket.on('data', (d: Buffer) => (out += d.toString('latin1')));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}

describe('startSimServer', () => {
  it('API-03: a request whose method is not upper-case (which Node\'s parser refuses) reaches the event log as sent', async () => {
    const { server, accounts, core } = await serve();
    const token = accessToken(await tokenRequest(transport(), server.urls.cert.restBaseUrl, auth(accounts.main.cert)));
    const answer = await rawRequest(server.urls.cert.restBaseUrl, `get ${THEMES} HTTP/1.1\r\nHost: sim\r\nAuthorization: Bearer ${token}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 \d{3} /);
    const last = core.events.since(0).at(-1);
    expect(last).toMatchObject({ method: 'get', path: THEMES, headers: { authorization: `Bearer ${token}` } });
    // Anything else the parser refuses is a plain 400, not an event.
    expect(await rawRequest(server.urls.cert.restBaseUrl, 'NOT HTTP AT ALL\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    expect(core.events.since(0).at(-1)).toBe(last);
  });

  it('serves CERT and PROD on distinct loopback ports, REST and SOAP on each', async () => {
    const { server } = await serve();
    const { cert, prod } = server.urls;
    expect(cert.restBaseUrl).toMatch(ORIGIN);
    expect(prod.restBaseUrl).toMatch(ORIGIN);
    expect(new URL(cert.restBaseUrl).port).not.toBe(new URL(prod.restBaseUrl).port);
    expect(cert.soapUrl).toBe(`${cert.restBaseUrl}/websvc`);
    expect(prod.soapUrl).toBe(`${prod.restBaseUrl}/websvc`);
    expect(server.controlUrl).toBeUndefined();
  });

  it('issues a token over real HTTP that is accepted on the CERT port and refused on the PROD port', async () => {
    const { server, accounts, core } = await serve();
    const t = transport();
    const res = await tokenRequest(t, server.urls.cert.restBaseUrl, auth(accounts.main.cert));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(JSON_TYPE);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = JSON.parse(res.body) as Record<string, unknown>;
    expect(body).toEqual({ access_token: expect.stringMatching(/^T1RLAQ[A-Za-z0-9+/]{118}\*$/), token_type: 'bearer', expires_in: 604800 });
    const token = accessToken(res);

    const headers = { authorization: `Bearer ${token}` };
    expect((await t.request({ method: 'GET', url: `${server.urls.cert.restBaseUrl}${THEMES}`, headers })).status).toBe(200);
    const prod = await t.request({ method: 'GET', url: `${server.urls.prod.restBaseUrl}${THEMES}`, headers });
    expect(prod.status).toBe(401);
    expect(JSON.parse(prod.body)).toMatchObject({ errorCode: 'ERR.2SG.SEC.INVALID_CREDENTIALS' });
    expect(core.events.since(0).map((e) => [e.env, e.outcome])).toEqual([['cert', 'token-issued'], ['cert', 'api-ok'], ['prod', 'api-refused-token']]);
  });

  it('passes the query string and lower-cased header names to the core', async () => {
    const { server, core } = await serve();
    const t = transport();
    await t.request({ method: 'GET', url: `${server.urls.prod.restBaseUrl}/v5.1.0/shop/altdates/flights?mode=live`, headers: { 'X-Trace-Id': 'abc' } });
    const event = core.events.since(0)[0];
    expect(event).toMatchObject({ env: 'prod', method: 'GET', path: '/v5.1.0/shop/altdates/flights', status: 401 });
    expect(event?.headers['x-trace-id']).toBe('abc');
  });

  it('API-03: a path that starts with "//" reaches the core as that path (it crashed the server: read as a host, "v2.0.0" is a bad IPv4 address)', async () => {
    const { server, core } = await serve();
    const { port } = new URL(server.urls.cert.restBaseUrl);
    for (const path of ['//v2.0.0/GetHotelRateInfoRQ', '//v1/lists/supported/shop/themes']) {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.end(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`));
        let data = '';
        socket.on('data', (c: Buffer) => { data += c.toString(); }).on('end', () => resolve(data)).on('error', reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 4\d\d /);
      expect(core.events.since(0).at(-1)).toMatchObject({ method: 'POST', path });
    }
    // Still serving.
    expect((await transport().request({ method: 'GET', url: `${server.urls.cert.restBaseUrl}${THEMES}` })).status).toBe(401);
  });

  it('answers 413 to a body over maxBodyBytes without handing it to the core, and closes the connection', async () => {
    const { server, core } = await serve({ maxBodyBytes: 64 });
    const t = transport();
    const res = await tokenRequest(t, server.urls.cert.restBaseUrl, 'Basic x', { body: `grant_type=client_credentials&pad=${'x'.repeat(1000)}` });
    expect(res.status).toBe(413);
    expect(res.body).toBe('request body too large');
    expect(res.headers['content-type']).toBe('text/plain');
    expect(res.headers.connection).toBe('close');
    expect(core.events.lastSeq).toBe(0);
  });

  it('accepts a body of exactly maxBodyBytes', async () => {
    const { server, accounts } = await serve({ maxBodyBytes: 64 });
    const t = transport();
    const body = 'grant_type=client_credentials&pad='.padEnd(64, 'x');
    expect(body).toHaveLength(64);
    expect((await tokenRequest(t, server.urls.cert.restBaseUrl, auth(accounts.main.cert), { body })).status).toBe(200);
  });

  it('keeps answering on one client after oversized bodies, large and small', async () => {
    // Regression: the server used to stop reading an oversized body and keep the connection alive, and a later
    // request on that connection got no answer at all.
    const { server, accounts } = await serve({ maxBodyBytes: 1024 });
    const t = transport({ timeoutMs: 5_000 });
    const base = server.urls.cert.restBaseUrl;
    const statuses: number[] = [];
    for (const size of [300_000, 2_000, 300_000, 2_000, 300_000]) {
      statuses.push((await tokenRequest(t, base, 'Basic x', { body: 'x'.repeat(size) })).status);
    }
    statuses.push((await tokenRequest(t, base, auth(accounts.main.cert))).status);
    expect(statuses).toEqual([413, 413, 413, 413, 413, 200]);
  });

  it('never answers a bad grant_type with the hang defect, which the transport reports as TIMEOUT', async () => {
    const { server, accounts, core } = await serve({}, ['err07-hang-on-bad-grant-type']);
    const t = transport();
    const base = server.urls.cert.restBaseUrl;
    const err = await tokenRequest(t, base, auth(accounts.main.cert), { body: 'grant_type=password', timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'TransportError', code: 'TIMEOUT', message: `no answer from ${base} within 300 ms`, url: `${base}/v2/auth/token` });
    expect(core.events.since(0).map((e) => e.outcome)).toEqual(['no-answer']);
  });

  it('drops the connection of a non-form body with the drop defect, which the transport reports as CONNECTION_DROPPED', async () => {
    const { server, accounts } = await serve({}, ['err07-drop-on-bad-content-type']);
    const t = transport();
    const base = server.urls.cert.restBaseUrl;
    const err = await tokenRequest(t, base, auth(accounts.main.cert), { contentType: 'application/json', body: '{}', timeoutMs: 5_000 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'TransportError', code: 'CONNECTION_DROPPED' });
    expect((err as Error).message).toMatch(new RegExp(`^${base.replace(/\./g, '\\.')} closed the connection before answering \\((UND_ERR_SOCKET|ECONNRESET)\\)$`));
  });

  it('ends a request left hanging when it closes', async () => {
    const { server, accounts, core } = await serve({}, ['err07-hang-on-bad-grant-type']);
    const t = transport();
    const pending = tokenRequest(t, server.urls.cert.restBaseUrl, auth(accounts.main.cert), { body: 'grant_type=password', timeoutMs: 30_000 }).then(
      (res) => res,
      (err: unknown) => err,
    );
    await vi.waitFor(() => expect(core.events.lastSeq).toBe(1), { timeout: 10_000, interval: 20 });
    await server.close();
    expect(await pending).toMatchObject({ name: 'TransportError', code: 'CONNECTION_DROPPED' });
  });
});

describe('startSimServer control endpoint', () => {
  it('is not served unless asked for: /__sim/ then reaches the simulated service', async () => {
    const { server } = await serve();
    const res = await transport().request({ method: 'GET', url: `${server.urls.cert.restBaseUrl}/__sim/state` });
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toMatchObject({ errorCode: 'ERR.2SG.PROXY.NOT_FOUND', message: 'no API at /__sim/state' });
  });

  it('reports the simulator state without logging its own requests', async () => {
    const { server, accounts } = await serve((c) => ({ control: { clock: c } }));
    expect(server.controlUrl).toBe(`${server.urls.cert.restBaseUrl}/__sim`);
    const t = transport();
    expect(await control(t, server.controlUrl, 'GET', '/state')).toEqual({ status: 200, body: { now: START, openSessions: 0, tokens: 0, events: 0 } });
    await tokenRequest(t, server.urls.cert.restBaseUrl, auth(accounts.main.cert));
    expect(await control(t, server.controlUrl, 'GET', '/state')).toEqual({ status: 200, body: { now: START, openSessions: 0, tokens: 1, events: 1 } });
  });

  it('moves the clock forward, so that a token expires', async () => {
    const { server, accounts, core } = await serve((c) => ({ control: { clock: c } }));
    const t = transport();
    const token = accessToken(await tokenRequest(t, server.urls.cert.restBaseUrl, auth(accounts.main.cert)));
    expect(await control(t, server.controlUrl, 'POST', '/clock/advance', { seconds: 900 })).toEqual({ status: 200, body: { now: START + 900_000 } });
    expect(core.clock.now()).toBe(START + 900_000);
    expect(await control(t, server.controlUrl, 'POST', '/clock/advance', { seconds: 604800 - 900 })).toEqual({ status: 200, body: { now: START + 604_800_000 } });
    const res = await t.request({ method: 'GET', url: `${server.urls.cert.restBaseUrl}${THEMES}`, headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
  });

  it.each([
    ['a negative number', { seconds: -1 }],
    ['no seconds', {}],
    ['a word', { seconds: 'soon' }],
    ['a body that is not JSON', 'seconds=900'],
  ])('refuses to move the clock by %s', async (_label, body) => {
    const { server, clock } = await serve((c) => ({ control: { clock: c } }));
    expect(await control(transport(), server.controlUrl, 'POST', '/clock/advance', body)).toEqual({ status: 400, body: { error: 'send {"seconds": <non-negative number>}' } });
    expect(clock.now()).toBe(START);
  });

  it('answers 409 to a clock move when it was given no clock', async () => {
    const { server } = await serve({ control: {} });
    expect(await control(transport(), server.controlUrl, 'POST', '/clock/advance', { seconds: 1 })).toEqual({ status: 409, body: { error: 'this simulator\'s clock cannot be moved' } });
  });

  it('adds an account that then obtains a token in its environment only', async () => {
    const { server } = await serve((c) => ({ control: { clock: c } }));
    const t = transport();
    const account = { epr: 'ext:42', pcc: 'P9Q8', password: 'pä ss:w/o+rd=' };
    expect(await control(t, server.controlUrl, 'POST', '/accounts', { env: 'prod', account })).toEqual({ status: 200, body: { ok: true } });
    const credentials = auth({ ...account, restDomain: 'AA' });
    expect((await tokenRequest(t, server.urls.prod.restBaseUrl, credentials)).status).toBe(200);
    expect((await tokenRequest(t, server.urls.cert.restBaseUrl, credentials)).status).toBe(401);
  });

  it.each([
    ['an unknown environment', { env: 'staging', account: { epr: 'a', pcc: 'b', password: 'c' } }],
    ['no epr', { env: 'cert', account: { pcc: 'b', password: 'c' } }],
    ['no pcc', { env: 'cert', account: { epr: 'a', password: 'c' } }],
    ['a password that is not a string', { env: 'cert', account: { epr: 'a', pcc: 'b', password: 1234 } }],
    ['no account', { env: 'cert' }],
  ])('refuses an account with %s', async (_label, body) => {
    const { server, core } = await serve((c) => ({ control: { clock: c } }));
    const before = [core.accountsIn('cert').length, core.accountsIn('prod').length];
    expect(await control(transport(), server.controlUrl, 'POST', '/accounts', body)).toEqual({
      status: 400,
      body: { error: 'send {"env": "cert"|"prod", "account": {"epr", "pcc", "password", …}}' },
    });
    expect([core.accountsIn('cert').length, core.accountsIn('prod').length]).toEqual(before);
  });

  it('answers 404 to an unknown control route', async () => {
    const { server } = await serve((c) => ({ control: { clock: c } }));
    expect(await control(transport(), server.controlUrl, 'GET', '/nope')).toEqual({ status: 404, body: { error: 'no control route GET /nope' } });
  });

  it('masks credentials, bodies and tokens in the events it sends', async () => {
    const { server, accounts } = await serve((c) => ({ control: { clock: c } }));
    const t = transport();
    const credentials = auth(accounts.main.cert);
    const token = accessToken(await tokenRequest(t, server.urls.cert.restBaseUrl, credentials));
    await t.request({ method: 'GET', url: `${server.urls.cert.restBaseUrl}${THEMES}`, headers: { authorization: `Bearer ${token}` } });
    await t.request({ method: 'GET', url: `${server.urls.cert.restBaseUrl}${THEMES}`, headers: { authorization: `Bearer${token}` } });

    const answer = await control(t, server.controlUrl, 'GET', '/events');
    const text = JSON.stringify(answer.body);
    for (const secret of [token, credentials.slice('Basic '.length), accounts.main.cert.password, 'grant_type=client_credentials']) expect(text).not.toContain(secret);
    const events = (answer.body as { events: Record<string, unknown>[] }).events;
    expect(events.map((e) => [e.seq, (e.headers as Record<string, string>).authorization, e.body, e.tokenIssued, e.tokenUsed])).toEqual([
      [1, 'Basic ***', '(body)', '***', undefined],
      [2, 'Bearer ***', '', undefined, '***'],
      [3, '***', '', undefined, undefined],
    ]);
    expect(events[0]).toMatchObject({ outcome: 'token-issued', clientId: 'V1:7971:Z2NL:AA', status: 200 });

    const after = await control(t, server.controlUrl, 'GET', '/events?after=2');
    expect((after.body as { events: { seq: number }[] }).events.map((e) => e.seq)).toEqual([3]);
  });

  it('sends the raw events when revealSecrets is set', async () => {
    const { server, accounts } = await serve((c) => ({ control: { clock: c, revealSecrets: true } }));
    const t = transport();
    const credentials = auth(accounts.main.cert);
    const token = accessToken(await tokenRequest(t, server.urls.cert.restBaseUrl, credentials));
    const answer = await control(t, server.controlUrl, 'GET', '/events');
    const [event] = (answer.body as { events: Record<string, unknown>[] }).events;
    expect(event).toMatchObject({ body: 'grant_type=client_credentials', tokenIssued: token, clientId: 'V1:7971:Z2NL:AA' });
    expect((event?.headers as Record<string, string>).authorization).toBe(credentials);
  });
});
