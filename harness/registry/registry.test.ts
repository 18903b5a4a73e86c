import { afterEach, describe, expect, it } from 'vitest';
import { buildRequest, makeRequestHeader, parseEnvelope, sessionCreateRQBody, usernameToken } from '../soap/index.ts';
import { defaultAccounts, ManualClock, SimCore, startSimServer } from '../sim/index.ts';
import { createTransport } from '../targets/transport.ts';
import { registryClient, RegistryUnreachable } from './client.ts';
import { SessionRegistry, type CloseAnswer, type RegisteredSession, type SessionCloser } from './registry.ts';
import { serveRegistry } from './server.ts';
import { soapSessionCloser } from './soap-closer.ts';

const session = (n: number): RegisteredSession => ({ env: 'cert', token: `token-${n}`, conversationId: `conv-${n}`, cpaId: 'A1B2' });
const never = new Promise<never>(() => {});

/** A closer whose answers the test decides, recording what it was asked. */
function fakeCloser(answer: (s: RegisteredSession, attempt: number) => Promise<CloseAnswer>): SessionCloser & { asked: string[] } {
  const asked: string[] = [];
  const closer = (s: RegisteredSession) => {
    asked.push(s.token);
    return answer(s, asked.filter((t) => t === s.token).length);
  };
  return Object.assign(closer, { asked });
}

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe('the session registry of a run', () => {
  it('counts token- and session-creating requests against the budget, and refuses every one once stopped', () => {
    const registry = new SessionRegistry({ tokens: 1, sessions: 2 }, fakeCloser(async () => ({ kind: 'closed' })));
    expect(registry.reserve('token')).toEqual({ ok: true });
    expect(registry.reserve('token')).toEqual({ ok: false, reason: 'budget', resource: 'tokens', limit: 1 });
    expect(registry.reserve('session')).toEqual({ ok: true });
    registry.stop();
    expect(registry.reserve('session')).toEqual({ ok: false, reason: 'interrupted' });
    expect(registry.counts()).toEqual({ tokens: 1, tokenRequests: 1, sessionRequests: 1, sessionsOpened: 0, sessionsClosed: 0, sessionsOpen: 0 });
  });

  it('refunds what a refused request did not create, keeps the last tokens for root checks, and knows what each route showed', () => {
    const registry = new SessionRegistry({ tokens: 8, sessions: 2 }, fakeCloser(async () => ({ kind: 'closed' })));
    for (let i = 0; i < 6; i++) expect(registry.reserve('token')).toEqual({ ok: true });
    expect(registry.reserve('token')).toMatchObject({ ok: false, resource: 'tokens' });
    expect(registry.reserve('token', true)).toEqual({ ok: true });
    registry.refund('token');
    registry.refund('token');
    expect(registry.reserve('token')).toEqual({ ok: true });
    expect(registry.counts()).toMatchObject({ tokens: 6, tokenRequests: 8 });
    expect(registry.route('k1')).toBeUndefined();
    registry.learnRoute('k1', { kind: 'refused', answer: '401 invalid_client' });
    expect(registry.route('k1')).toEqual({ kind: 'refused', answer: '401 invalid_client' });
  });

  it('closes what is still open, once each, and counts the closes the workers reported', async () => {
    const closer = fakeCloser(async (s) => (s.token === 'token-3' ? { kind: 'refused', fault: 'Client.InvalidSecurityToken' } : { kind: 'closed' }));
    const registry = new SessionRegistry({ tokens: 9, sessions: 9 }, closer);
    for (const n of [1, 2, 3]) registry.opened(session(n));
    registry.closed('token-1');
    expect(await registry.closeAll(1_000)).toEqual({ closed: 1, refused: ['Client.InvalidSecurityToken'], open: 0 });
    expect(closer.asked).toEqual(['token-2', 'token-3']);
    expect(registry.counts()).toEqual({ tokens: 0, tokenRequests: 0, sessionRequests: 0, sessionsOpened: 3, sessionsClosed: 3, sessionsOpen: 0 });
    expect(registry.refusedCloses()).toEqual(['Client.InvalidSecurityToken']);
  });

  it('sends one more close for a session whose first close got no answer, without waiting for the first', async () => {
    const closer = fakeCloser((_, attempt) => (attempt === 1 ? never : Promise.resolve({ kind: 'closed' as const })));
    const registry = new SessionRegistry({ tokens: 9, sessions: 9 }, closer);
    registry.opened(session(1));
    expect(await registry.closeAll(60_000, 10)).toEqual({ closed: 1, refused: [], open: 0 });
    expect(closer.asked).toEqual(['token-1', 'token-1']);
  });

  it('keeps a session whose closes got no answer in time, and tries again on the next round', async () => {
    let answering = false;
    const closer = fakeCloser(() => (answering ? Promise.resolve({ kind: 'closed' as const }) : never));
    const registry = new SessionRegistry({ tokens: 9, sessions: 9 }, closer);
    registry.opened(session(1));
    expect(await registry.closeAll(30, 10)).toEqual({ closed: 0, refused: [], open: 1 });
    expect(registry.openSessions()).toEqual([session(1)]);
    answering = true;
    expect(await registry.closeAll(1_000)).toEqual({ closed: 1, refused: [], open: 0 });
  });

  it('keeps a session whose closes failed (no SOAP answer, connection refused), after trying twice', async () => {
    const closer = fakeCloser(() => Promise.reject(new Error('ECONNREFUSED')));
    const registry = new SessionRegistry({ tokens: 9, sessions: 9 }, closer);
    registry.opened(session(1));
    expect(await registry.closeAll(1_000, 10)).toEqual({ closed: 0, refused: [], open: 1 });
    expect(closer.asked).toEqual(['token-1', 'token-1']);
  });

  it('stops waiting for a hung close once a worker reports the session closed', async () => {
    const registry = new SessionRegistry({ tokens: 9, sessions: 9 }, fakeCloser(() => never));
    registry.opened(session(1));
    const round = registry.closeAll(60_000, 60_000);
    registry.closed('token-1');
    expect(await round).toEqual({ closed: 1, refused: [], open: 0 });
    await registry.settled(60_000); // not waiting for the hung attempt either
  });

  it('closes at once a session registered after it was stopped (a create that was in flight)', async () => {
    const closer = fakeCloser(async () => ({ kind: 'closed' }));
    const registry = new SessionRegistry({ tokens: 9, sessions: 9 }, closer);
    registry.stop(1_000);
    registry.opened(session(7));
    await registry.settled(1_000);
    expect(closer.asked).toEqual(['token-7']);
    expect(registry.counts()).toMatchObject({ sessionsOpened: 1, sessionsClosed: 1, sessionsOpen: 0 });
  });
});

describe('the registry served to workers', () => {
  it('takes reservations, registrations and closes from a worker over loopback', async () => {
    const registry = new SessionRegistry({ tokens: 1, sessions: 5 }, fakeCloser(async () => ({ kind: 'closed' })));
    const server = await serveRegistry(registry);
    cleanup.push(() => server.close());
    const worker = registryClient(server.endpoint);
    expect(await worker.reserve('token')).toEqual({ ok: true });
    expect(await worker.reserve('token')).toEqual({ ok: false, reason: 'budget', resource: 'tokens', limit: 1 });
    await worker.opened(session(1));
    await worker.opened(session(2));
    await worker.closed('token-1');
    expect(registry.openSessions()).toEqual([session(2)]);
  });

  it('answers nothing to a caller without the run\'s key', async () => {
    const registry = new SessionRegistry({ tokens: 1, sessions: 5 }, fakeCloser(async () => ({ kind: 'closed' })));
    const server = await serveRegistry(registry);
    cleanup.push(() => server.close());
    const stranger = registryClient({ url: server.endpoint.url, key: 'not-the-key' });
    const err = await stranger.opened(session(1)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistryUnreachable);
    expect((err as RegistryUnreachable).code).toBe('REGISTRY_UNREACHABLE');
    expect((err as Error).message).toBe('the harness\'s session registry (in the main process) did not answer: HTTP 403');
    expect(registry.openSessions()).toEqual([]);
  });
});

describe('closing from the main process', () => {
  it('sends SessionCloseRQ with the session\'s token to its environment, and reads the answer', async () => {
    const accounts = defaultAccounts(5);
    const core = new SimCore({ clock: new ManualClock(Date.UTC(2026, 0, 1)), accounts: accounts.accounts, seed: 5 });
    const server = await startSimServer(core);
    const transport = createTransport({ timeoutMs: 5_000 });
    cleanup.push(() => server.close(), () => transport.close());
    const a = accounts.main.cert;
    const created = await transport.request({
      method: 'POST',
      url: server.urls.cert.soapUrl,
      headers: { 'content-type': 'text/xml; charset=utf-8' },
      body: buildRequest({
        header: makeRequestHeader({ action: 'SessionCreateRQ', cpaId: a.pcc, conversationId: 'conv-main', messageId: 'm1@test', now: new Date(Date.UTC(2026, 0, 1)) }),
        security: usernameToken({ username: a.epr, password: a.password, organization: a.pcc, domain: a.soapDomain }),
        body: sessionCreateRQBody({ pseudoCityCode: a.pcc }),
      }),
    });
    const parsed = parseEnvelope(created.body);
    const security = parsed.ok ? parsed.envelope.security : undefined;
    if (security?.kind !== 'binarySecurityToken') throw new Error(`no session was opened: ${created.body.slice(0, 300)}`);
    expect(core.openSessionCount()).toBe(1);
    const close = soapSessionCloser(server.urls, transport);
    const opened: RegisteredSession = { env: 'cert', token: security.token, conversationId: 'conv-main', cpaId: a.pcc };
    expect(await close(opened, 2_000)).toEqual({ kind: 'closed' });
    expect(core.openSessionCount()).toBe(0);
    expect(await close(opened, 2_000)).toMatchObject({ kind: 'refused' });
  });
});
