/**
 * The reference client against the simulated service, in-process through MSW: how a client developer tests their own
 * code with the exported handlers (`createSimHandlers`), a simulator whose clock the test moves (`ManualClock`), and
 * the simulator's event log (`core.events`) as the record of what the client sent.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DriverAnswer, DriverCredentials, DriverEnvironment, Environment } from '../../../harness/clients/protocol.ts';
import { basicAuthorization, clientIdFor, decodeAuthorization } from '../../../harness/credentials/index.ts';
import { createSimHandlers, defaultAccounts, inProcessUrls, ManualClock, SimCore, startSimServer, type SimAccount, type SimEndpoints, type SimEvent } from '../../../harness/sim/index.ts';
import {
  attributeValue, childElement, createValidator, NS, parseEnvelope, type EnvelopeValidator, type ParsedEnvelope,
} from '../../../harness/soap/index.ts';
import { FORM_CONTENT_TYPE, TOKEN_PATH } from '../../../harness/catalog/index.ts';
import { createClient } from './adapter.ts';
import { TdsClient, virtualClock, type TdsClientOptions } from './client.ts';

const THEMES = '/v1/lists/supported/shop/themes';
const LIFETIME_SECONDS = 604800;
const accounts = defaultAccounts(11);

const server = setupServer();
let validator: EnvelopeValidator;
beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  validator = await createValidator();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  server.resetHandlers();
});
afterAll(async () => {
  server.close();
  await validator.close();
});

const clients: TdsClient[] = [];

function credentialsOf(account: SimAccount, changes: Partial<DriverCredentials> = {}): DriverCredentials {
  // No domains: the client must fall back to `AA` (REST) and `DEFAULT` (SOAP), as the simulator's accounts use.
  return { epr: account.epr, pcc: account.pcc, password: account.password, ...changes };
}

function environment(urls: SimEndpoints, credentials: DriverCredentials): DriverEnvironment {
  return { restBaseUrl: urls.restBaseUrl, soapUrl: urls.soapUrl, credentials };
}

interface Setup {
  readonly core: SimCore;
  readonly clock: ManualClock;
  readonly client: TdsClient;
}

/** A fresh simulator behind MSW and a client configured for both of its environments. */
function setup(options: Partial<TdsClientOptions> & { readonly cert?: DriverCredentials } = {}): Setup {
  const clock = new ManualClock();
  const core = new SimCore({ clock, accounts: accounts.accounts, seed: 11 });
  server.use(...createSimHandlers(core));
  const { cert = credentialsOf(accounts.main.cert), ...clientOptions } = options;
  const client = new TdsClient({
    environments: { cert: environment(inProcessUrls.cert, cert), prod: environment(inProcessUrls.prod, credentialsOf(accounts.main.prod)) },
    sessionPoolSize: 4,
    ...clientOptions,
  });
  clients.push(client);
  return { core, clock, client };
}

const events = (core: SimCore): readonly SimEvent[] => core.events.since();
const tokenRequests = (core: SimCore) => events(core).filter((e) => e.path === TOKEN_PATH);
const issued = (core: SimCore) => events(core).filter((e) => e.outcome === 'token-issued');
const apiCalls = (core: SimCore) => events(core).filter((e) => e.protocol === 'rest' && e.path !== TOKEN_PATH);

interface SoapSent {
  readonly event: SimEvent;
  readonly envelope: ParsedEnvelope;
}

/** Every SOAP request the simulator received, parsed. */
function soapSent(core: SimCore, action?: string): SoapSent[] {
  return events(core)
    .filter((e) => e.protocol === 'soap')
    .map((event) => {
      const parsed = parseEnvelope(event.body);
      if (!parsed.ok) throw new Error(`the client sent an envelope that does not parse: ${parsed.message}`);
      return { event, envelope: parsed.envelope };
    })
    .filter((s) => action === undefined || s.envelope.action === action);
}

function bst(envelope: ParsedEnvelope): string | undefined {
  return envelope.security.kind === 'binarySecurityToken' ? envelope.security.token : undefined;
}

/** Every request must validate against the harness's request schema (SOAP-01). */
async function expectSchemaValid(sent: readonly SoapSent[]): Promise<void> {
  const verdicts = await Promise.all(sent.map((s) => validator.validate(s.event.body, 'request')));
  expect(verdicts.map((v, i) => ({ action: sent[i]?.envelope.action, ...v }))).toEqual(sent.map((s) => ({ action: s.envelope.action, valid: true })));
}

/** SOAP-01: the complete eb:MessageHeader. */
function expectCompleteHeader(envelope: ParsedEnvelope, pcc: string): void {
  const h = envelope.messageHeader;
  expect(h?.from[0]?.value).toBeTruthy();
  expect(h?.to[0]?.value).toBeTruthy();
  expect(h?.cpaId).toBe(pcc);
  expect(h?.conversationId).toBeTruthy();
  expect(h?.service?.value).toBe(h?.action);
  expect(h?.messageData).toEqual({ messageId: expect.any(String), timestamp: expect.any(String), timeToLive: expect.any(String), refToMessageId: undefined });
}

describe('REST tokens', () => {
  it('builds the token request as documented: POST /v2/auth/token, form body, double-base64 V1 credentials with domain AA', async () => {
    const { core, client } = setup();
    const answer = await client.rest('cert', 'GET', THEMES);

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ Themes: expect.arrayContaining([{ Theme: 'BEACH' }]) });
    const [request, ...more] = tokenRequests(core);
    expect(more).toEqual([]);
    expect(request).toMatchObject({ method: 'POST', path: TOKEN_PATH, body: 'grant_type=client_credentials', outcome: 'token-issued', clientId: 'V1:7971:Z2NL:AA' });
    expect(request?.headers['content-type']).toBe(FORM_CONTENT_TYPE);
    const account = accounts.main.cert;
    expect(request?.headers.authorization).toBe(basicAuthorization({ ...clientIdFor(account), password: account.password }));
    expect(decodeAuthorization(request?.headers.authorization)).toMatchObject({ ok: true, parts: { userid: '7971', group: 'Z2NL', domain: 'AA' } });
    expect(apiCalls(core)).toMatchObject([{ method: 'GET', path: THEMES, outcome: 'api-ok' }]);
    expect(apiCalls(core)[0]?.headers.authorization).toBe(`Bearer ${request?.tokenIssued}`);
  });

  it('reuses one token for many calls', async () => {
    const { core, client } = setup();
    for (let i = 0; i < 5; i++) expect((await client.rest('cert', 'GET', THEMES)).status).toBe(200);

    expect(issued(core)).toHaveLength(1);
    expect(new Set(apiCalls(core).map((e) => e.tokenUsed))).toEqual(new Set([issued(core)[0]?.tokenIssued]));
  });

  it('shares one token request among concurrent first calls', async () => {
    const { core, client } = setup();
    const answers = await Promise.all(Array.from({ length: 8 }, () => client.rest('cert', 'GET', THEMES)));

    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(tokenRequests(core)).toHaveLength(1);
  });

  it('gets a new token once the service refuses the expired one, and never sends the refused one again', async () => {
    const { core, clock, client } = setup();
    await client.rest('cert', 'GET', THEMES);
    const [first] = issued(core);
    // The simulator's clock moves; the client's does not: it can only learn of the expiry from the 401.
    clock.advance(LIFETIME_SECONDS + 1);

    expect((await client.rest('cert', 'GET', THEMES)).status).toBe(200);
    expect((await client.rest('cert', 'GET', THEMES)).status).toBe(200);
    const [, second] = issued(core);
    expect(issued(core)).toHaveLength(2);
    expect(apiCalls(core).map((e) => [e.outcome, e.tokenUsed])).toEqual([
      ['api-ok', first?.tokenIssued],
      ['api-refused-token', first?.tokenIssued],
      ['api-ok', second?.tokenIssued],
      ['api-ok', second?.tokenIssued],
    ]);
  });

  it('shares one new token among concurrent calls whose token was refused together', async () => {
    const { core, clock, client } = setup();
    await client.rest('cert', 'GET', THEMES);
    clock.advance(LIFETIME_SECONDS + 1);

    const answers = await Promise.all(Array.from({ length: 5 }, () => client.rest('cert', 'GET', THEMES)));
    expect(answers.map((a) => a.status)).toEqual(Array(5).fill(200));
    expect(issued(core)).toHaveLength(2);
    expect(apiCalls(core).filter((e) => e.outcome === 'api-refused-token')).toHaveLength(5);
  });

  it('renews its token before expires_in has passed on its own clock, with no refused call', async () => {
    let now = Date.UTC(2026, 0, 1);
    const { core, client } = setup({ now: () => now });
    await client.rest('cert', 'GET', THEMES);
    now += (LIFETIME_SECONDS - 299) * 1000; // inside the 300 s safety margin

    await client.rest('cert', 'GET', THEMES);
    expect(issued(core)).toHaveLength(2);
    expect(apiCalls(core).map((e) => e.outcome)).toEqual(['api-ok', 'api-ok']);
  });

  it('reports invalid_client with the service code and description, and does not retry it', async () => {
    const { core, client } = setup({ cert: credentialsOf(accounts.main.cert, { password: 'not-the-password' }) });
    const failure = await client.rest('cert', 'GET', THEMES).catch((e: unknown) => e);

    expect(failure).toMatchObject({
      name: 'ClientError',
      kind: 'auth',
      code: 'invalid_client',
      description: 'Wrong clientID or clientSecret',
      message: 'the token endpoint of CERT refused the credentials: invalid_client',
    });
    expect(tokenRequests(core).length).toBeLessThanOrEqual(2);
    expect(tokenRequests(core).map((e) => e.outcome)).toEqual(['token-refused-credentials']);
    expect(apiCalls(core)).toEqual([]);
  });

  it('keeps each environment\'s token to that environment', async () => {
    const { core, client } = setup();
    const calls: [Environment, number][] = [['cert', 1], ['prod', 2], ['cert', 3], ['prod', 4]];
    const answers = await Promise.all(calls.map(([env]) => client.rest(env, 'GET', THEMES)));

    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const issuedIn = new Map(issued(core).map((e) => [e.tokenIssued, e.env]));
    expect(issued(core).map((e) => e.env).sort()).toEqual(['cert', 'prod']);
    for (const call of apiCalls(core)) expect({ env: call.env, tokenFrom: issuedIn.get(call.tokenUsed) }).toEqual({ env: call.env, tokenFrom: call.env });
    expect(apiCalls(core).map((e) => e.outcome)).toEqual(Array(4).fill('api-ok'));
  });

  it('refuses an environment it has no configuration for', async () => {
    const clock = new ManualClock();
    server.use(...createSimHandlers(new SimCore({ clock, accounts: accounts.accounts, seed: 11 })));
    const client = new TdsClient({ environments: { cert: environment(inProcessUrls.cert, credentialsOf(accounts.main.cert)) }, sessionPoolSize: 1 });
    clients.push(client);

    await expect(client.rest('prod', 'GET', THEMES)).rejects.toMatchObject({ kind: 'unsupported', message: 'no PROD environment is configured' });
  });
});

describe('SOAP sessionless calls', () => {
  it('reuses one TokenCreateRQ token, sent in BinarySecurityToken with the called action', async () => {
    const { core, client } = setup();
    for (let i = 0; i < 3; i++) expect((await client.soap('cert', 'BargainFinderMaxRQ')).action).toBe('BargainFinderMaxRS');

    const sent = soapSent(core);
    expect(sent.map((s) => s.envelope.action)).toEqual(['TokenCreateRQ', 'BargainFinderMaxRQ', 'BargainFinderMaxRQ', 'BargainFinderMaxRQ']);
    const [create, ...calls] = sent;
    expect(create?.envelope.security).toEqual({ kind: 'usernameToken', username: '7971', password: accounts.main.cert.password, organization: 'Z2NL', domain: 'DEFAULT' });
    expect(create?.envelope.body.manifest?.references).toEqual(['cid:rootelement']);
    for (const call of calls) expect(bst(call.envelope)).toBe(create?.event.tokenIssued);
    for (const s of sent) expectCompleteHeader(s.envelope, 'Z2NL');
    expect(new Set(sent.map((s) => s.envelope.messageHeader?.messageData?.messageId)).size).toBe(4);
    await expectSchemaValid(sent);
  });

  it('replaces a refused sessionless token once and keeps using the new one', async () => {
    const { core, clock, client } = setup();
    await client.soap('cert', 'BargainFinderMaxRQ');
    clock.advance(LIFETIME_SECONDS + 1);

    expect((await client.soap('cert', 'BargainFinderMaxRQ')).action).toBe('BargainFinderMaxRS');
    expect((await client.soap('cert', 'BargainFinderMaxRQ')).action).toBe('BargainFinderMaxRS');
    const sent = soapSent(core);
    expect(sent.map((s) => [s.envelope.action, s.event.outcome])).toEqual([
      ['TokenCreateRQ', 'soap-ok'],
      ['BargainFinderMaxRQ', 'soap-ok'],
      ['BargainFinderMaxRQ', 'soap-fault'],
      ['TokenCreateRQ', 'soap-ok'],
      ['BargainFinderMaxRQ', 'soap-ok'],
      ['BargainFinderMaxRQ', 'soap-ok'],
    ]);
    const [first, second] = sent.filter((s) => s.envelope.action === 'TokenCreateRQ').map((s) => s.event.tokenIssued);
    expect(sent.slice(1).map((s) => bst(s.envelope))).toEqual([first, first, undefined, second, second]);
  });

  it('reports refused SOAP credentials as an auth error with the faultcode and faultstring', async () => {
    const { core, client } = setup({ cert: credentialsOf(accounts.main.cert, { password: 'not-the-password' }) });

    await expect(client.soap('cert', 'BargainFinderMaxRQ')).rejects.toMatchObject({
      name: 'ClientError', kind: 'auth', code: 'Client.AuthenticationFailed', description: 'Authentication failed', message: 'TokenCreateRQ failed with SOAP fault Client.AuthenticationFailed',
    });
    expect(soapSent(core).map((s) => s.envelope.action)).toEqual(['TokenCreateRQ']);
  });
});

describe('SOAP sessions', () => {
  it('opens, uses, pings and closes a session with valid envelopes and one ConversationId', async () => {
    const { core, client } = setup();
    const handle = await client.openSession('cert');
    expect((await client.sessionCall(handle, 'OTA_HotelAvailLLSRQ')).action).toBe('OTA_HotelAvailLLSRS');
    expect((await client.sessionCall(handle, 'OTA_PingRQ')).action).toBe('OTA_PingRS');
    await client.closeSession(handle);

    expect(core.openSessionCount()).toBe(0);
    const sent = soapSent(core);
    expect(sent.map((s) => s.envelope.action)).toEqual(['SessionCreateRQ', 'OTA_HotelAvailLLSRQ', 'OTA_PingRQ', 'SessionCloseRQ']);
    const [create, ...later] = sent;
    expect(create?.envelope.security).toMatchObject({ kind: 'usernameToken', username: '7971', organization: 'Z2NL', domain: 'DEFAULT' });
    expect(create?.envelope.body.manifest?.references).toHaveLength(1);
    for (const s of later) expect(bst(s.envelope)).toBe(create?.event.tokenIssued);
    expect(new Set(sent.map((s) => s.envelope.messageHeader?.conversationId)).size).toBe(1);
    for (const s of sent) expectCompleteHeader(s.envelope, 'Z2NL');

    const close = later.at(-1)?.envelope.body.root;
    expect(close?.localName).toBe('SessionCloseRQ');
    expect(attributeValue(close, 'TimeStamp')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(attributeValue(close, 'Version')).toBe('1.0.0');
    expect(attributeValue(childElement(childElement(close, NS.ota, 'POS'), NS.ota, 'Source'), 'PseudoCityCode')).toBe('Z2NL');
    await expectSchemaValid(sent);
  });

  it('pings an idle session on a timer, before the inactivity timeout', async () => {
    const { core, client } = setup({ keepAliveAfterMs: 5 });
    const handle = await client.openSession('cert');

    await expect.poll(() => soapSent(core, 'OTA_PingRQ').length).toBeGreaterThanOrEqual(2);
    await client.closeSession(handle);
    const [create] = soapSent(core, 'SessionCreateRQ');
    for (const ping of soapSent(core, 'OTA_PingRQ')) {
      expect(ping.event.outcome).toBe('soap-ok');
      expect(bst(ping.envelope)).toBe(create?.event.tokenIssued);
      expect(ping.envelope.messageHeader?.conversationId).toBe(create?.envelope.messageHeader?.conversationId);
    }
    expect(soapSent(core).at(-1)?.envelope.action).toBe('SessionCloseRQ');
  });

  it('closes every open session at shutdown and refuses work afterwards', async () => {
    const { core, client } = setup();
    const handles = await Promise.all([client.openSession('cert'), client.openSession('cert'), client.openSession('prod')]);
    expect(core.openSessionCount()).toBe(3);

    expect(await client.close()).toEqual({ sessionsClosed: 3, failures: [] });
    expect(core.openSessionCount()).toBe(0);
    const opened = soapSent(core, 'SessionCreateRQ').map((s) => s.event.tokenIssued).sort();
    expect(soapSent(core, 'SessionCloseRQ').map((s) => bst(s.envelope)).sort()).toEqual(opened);
    await expect(client.sessionCall(handles[0], 'OTA_PingRQ')).rejects.toMatchObject({ kind: 'protocol', message: 'the client is shut down' });
  });

  it('never holds more sessions than its pool allows', async () => {
    const { core, client } = setup({ sessionPoolSize: 2 });
    const [a] = await Promise.all([client.openSession('cert'), client.openSession('cert')]);

    await expect(client.openSession('cert')).rejects.toMatchObject({ kind: 'protocol', code: 'pool-full', message: 'the session pool of CERT is full (2 of 2 open); close a session first' });
    expect(soapSent(core, 'SessionCreateRQ')).toHaveLength(2);
    await client.closeSession(a);
    await client.openSession('cert');
    expect(soapSent(core, 'SessionCreateRQ')).toHaveLength(3);
    expect(core.openSessionCount()).toBe(2);
  });

  it('reports Client.ReachedTALimit after a single retry', async () => {
    // The simulator's account allows 4 sessions; the client is told it may hold 10.
    const { core, client } = setup({ sessionPoolSize: 10, poolFullBackoffMs: 1 });
    for (let i = 0; i < 4; i++) await client.openSession('cert');

    await expect(client.openSession('cert')).rejects.toMatchObject({
      kind: 'protocol', code: 'Client.ReachedTALimit', description: 'You have reached the limit of Host TAs allocated to you',
    });
    expect(soapSent(core, 'SessionCreateRQ').map((s) => s.event.outcome)).toEqual([...Array(4).fill('soap-ok'), 'soap-fault', 'soap-fault']);
  });

  it('waits its back-off on its own clock: with a virtual clock (driver protocol "clock": "virtual") no real time passes', async () => {
    const clock = virtualClock();
    const { core, client } = setup({ sessionPoolSize: 10, poolFullBackoffMs: 60_000, clock });
    for (let i = 0; i < 4; i++) await client.openSession('cert');
    const before = clock.now();
    const started = performance.now();
    await expect(client.openSession('cert')).rejects.toMatchObject({ code: 'Client.ReachedTALimit' });
    // One retry, after the back-off: a minute on the client's clock, a moment in real time.
    expect(soapSent(core, 'SessionCreateRQ').filter((s) => s.event.outcome === 'soap-fault')).toHaveLength(2);
    expect(clock.now() - before).toBeGreaterThanOrEqual(60_000);
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it('replaces a session whose token was refused and never sends that token again', async () => {
    const { core, clock, client } = setup();
    const handle = await client.openSession('cert');
    const [created] = soapSent(core, 'SessionCreateRQ');
    const refused = created?.event.tokenIssued;
    clock.advance(15 * 60 + 1); // past the inactivity timeout: the simulator expires the session

    expect((await client.sessionCall(handle, 'OTA_HotelAvailLLSRQ')).action).toBe('OTA_HotelAvailLLSRS');
    await client.closeSession(handle);

    const sent = soapSent(core);
    expect(sent.map((s) => [s.envelope.action, s.event.outcome])).toEqual([
      ['SessionCreateRQ', 'soap-ok'],
      ['OTA_HotelAvailLLSRQ', 'soap-fault'],
      ['SessionCreateRQ', 'soap-ok'],
      ['OTA_HotelAvailLLSRQ', 'soap-ok'],
      ['SessionCloseRQ', 'soap-ok'],
    ]);
    expect(sent.filter((s) => bst(s.envelope) === refused)).toHaveLength(1);
    expect(new Set(sent.map((s) => s.envelope.messageHeader?.conversationId)).size).toBe(1);
    expect(core.openSessionCount()).toBe(0);
  });

  it('closes a session when a call in it failed, and reports the fault', async () => {
    // An account without the air-shopping amendment: BargainFinderMaxRQ is refused with Client.NotAuthorized.
    const { core, client } = setup({ cert: credentialsOf(accounts.noAmendment) });
    const handle = await client.openSession('cert');

    await expect(client.sessionCall(handle, 'BargainFinderMaxRQ')).rejects.toMatchObject({ kind: 'auth', code: 'Client.NotAuthorized' });
    expect(soapSent(core).map((s) => s.envelope.action)).toEqual(['SessionCreateRQ', 'BargainFinderMaxRQ', 'SessionCloseRQ']);
    expect(core.openSessionCount()).toBe(0);
    await expect(client.sessionCall(handle, 'OTA_PingRQ')).rejects.toMatchObject({ kind: 'protocol', message: `session ${handle} is closed` });
    await client.closeSession(handle);
    expect(soapSent(core)).toHaveLength(3);
  });
});

describe('the adapter and the stdio driver', () => {
  it('createClient answers every op of the driver protocol and starts afresh on configure', async () => {
    const core = new SimCore({ clock: new ManualClock(), accounts: accounts.accounts, seed: 11 });
    server.use(...createSimHandlers(core));
    const adapter = createClient();
    await expect(adapter.restCall({ environment: 'cert', method: 'GET', path: THEMES })).rejects.toMatchObject({ message: 'the client is not configured; send "configure" first' });
    const configure = { environments: { cert: environment(inProcessUrls.cert, credentialsOf(accounts.main.cert)) }, sessionPoolSize: 2 };
    try {
      await adapter.configure(configure);
      expect(await adapter.restCall({ environment: 'cert', method: 'GET', path: THEMES })).toMatchObject({ status: 200 });
      expect(await adapter.soapCall({ environment: 'cert', action: 'BargainFinderMaxRQ' })).toEqual({ action: 'BargainFinderMaxRS' });
      const { session } = await adapter.openSession({ environment: 'cert' });
      expect(await adapter.sessionCall({ session, action: 'OTA_PingRQ' })).toEqual({ action: 'OTA_PingRS' });
      await adapter.openSession({ environment: 'cert' });

      await adapter.configure(configure); // a reset closes the previous client's sessions
      expect(core.openSessionCount()).toBe(0);
      await adapter.openSession({ environment: 'cert' });

    } finally {
      await adapter.shutdown();
    }
    expect(core.openSessionCount()).toBe(0);
  });

  it('configure with "clock": "virtual" skips the back-off\'s wait and still makes the one retry', async () => {
    const core = new SimCore({ clock: new ManualClock(), accounts: accounts.accounts, seed: 11 });
    server.use(...createSimHandlers(core));
    // A back-off of an hour: waited for real, the test would run out of time.
    const adapter = createClient({ poolFullBackoffMs: 3_600_000 });
    try {
      await adapter.configure({ environments: { cert: environment(inProcessUrls.cert, credentialsOf(accounts.main.cert)) }, sessionPoolSize: 10, clock: 'virtual' });
      for (let i = 0; i < 4; i++) await adapter.openSession({ environment: 'cert' });
      await expect(adapter.openSession({ environment: 'cert' })).rejects.toMatchObject({ code: 'Client.ReachedTALimit' });
      expect(soapSent(core, 'SessionCreateRQ').filter((s) => s.event.outcome === 'soap-fault')).toHaveLength(2);
    } finally {
      await adapter.shutdown();
    }
  }, 20_000);

  it('driver.ts serves the protocol over stdio against the simulator on loopback', async () => {
    const core = new SimCore({ clock: new ManualClock(), accounts: accounts.accounts, seed: 11 });
    const sim = await startSimServer(core);
    const driver = startDriver();
    try {
      const environments = { cert: environment(sim.urls.cert, credentialsOf(accounts.main.cert)), prod: environment(sim.urls.prod, credentialsOf(accounts.main.prod)) };
      expect(await driver.send({ op: 'configure', environments, sessionPoolSize: 2 })).toEqual({ id: 1, ok: true, result: {} });
      const [themes, prod] = await Promise.all([
        driver.send({ op: 'rest.call', environment: 'cert', method: 'GET', path: THEMES }),
        driver.send({ op: 'soap.call', environment: 'prod', action: 'BargainFinderMaxRQ' }),
      ]);
      expect(themes).toMatchObject({ ok: true, result: { status: 200 } });
      expect(prod).toMatchObject({ ok: true, result: { action: 'BargainFinderMaxRS' } });
      expect(await driver.send({ op: 'soap.session.open', environment: 'cert' })).toMatchObject({ ok: true, result: { session: expect.any(String) } });
      expect(await driver.send({ op: 'soap.session.open', environment: 'prod' })).toMatchObject({ ok: true });
      expect(await driver.send({ op: 'soap.session.call', session: 'no-such-handle', action: 'OTA_PingRQ' })).toMatchObject({
        ok: false, error: { kind: 'protocol', message: 'unknown session handle "no-such-handle"' },
      });
      expect(await driver.send({ op: 'shutdown' })).toEqual({ id: 7, ok: true, result: {} });
      expect(await driver.exited).toBe(0);
      expect(core.openSessionCount()).toBe(0);
      expect(soapSent(core, 'SessionCloseRQ')).toHaveLength(2);
    } finally {
      driver.child.kill();
      await sim.close();
    }
  });

  it('driver.ts closes its open sessions when its input ends without a shutdown', async () => {
    const core = new SimCore({ clock: new ManualClock(), accounts: accounts.accounts, seed: 11 });
    const sim = await startSimServer(core);
    const driver = startDriver();
    try {
      await driver.send({ op: 'configure', environments: { cert: environment(sim.urls.cert, credentialsOf(accounts.main.cert)) }, sessionPoolSize: 2 });
      expect(await driver.send({ op: 'soap.session.open', environment: 'cert' })).toMatchObject({ ok: true });
      expect(core.openSessionCount()).toBe(1);
      driver.child.stdin.end();
      expect(await driver.exited).toBe(0);
      expect(core.openSessionCount()).toBe(0);
    } finally {
      driver.child.kill();
      await sim.close();
    }
  });
});

/** The stdio driver as a child process, and a way to send it one request and await its answer. */
function startDriver() {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./driver.ts', import.meta.url))], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map<number, (a: DriverAnswer) => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const answer = JSON.parse(line) as DriverAnswer;
    waiting.get(answer.id)?.(answer);
  });
  let id = 0;
  return {
    child,
    exited: new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code))),
    send(request: Record<string, unknown>): Promise<DriverAnswer> {
      const sent = ++id;
      const answered = new Promise<DriverAnswer>((resolve) => waiting.set(sent, resolve));
      child.stdin.write(`${JSON.stringify({ id: sent, ...request })}\n`);
      return answered;
    },
  };
}
