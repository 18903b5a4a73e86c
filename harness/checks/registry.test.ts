import { afterEach, describe, expect, it } from 'vitest';
import { serveRegistry, SessionRegistry, type RegistryServer } from '../registry/index.ts';
import { defaultRunConfig } from '../run-config.ts';
import { BudgetExhausted, RunInterrupted } from './budget.ts';
import { registerSession, runLedger, unregisterSession } from './registry.ts';

const servers: RegistryServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function served(limits: { tokens: number; sessions: number }) {
  const registry = new SessionRegistry(limits, async () => ({ kind: 'closed' }));
  const server = await serveRegistry(registry);
  servers.push(server);
  return { registry, run: defaultRunConfig({ target: { kind: 'live', config: { name: 'registry test', environments: {}, accounts: {} } }, registry: server.endpoint }) };
}

describe('a worker\'s side of the session registry', () => {
  it('counts against the main process\'s budget, shared by every worker, and names the option to raise it', async () => {
    const { registry, run } = await served({ tokens: 1, sessions: 1 });
    const one = runLedger(run);
    const other = runLedger(run);
    await one.reserve('token');
    const err = await other.reserve('token').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BudgetExhausted);
    expect(err).toMatchObject({ code: 'BUDGET_EXHAUSTED', resource: 'tokens', limit: 1 });
    expect((err as Error).message).toContain('--max-tokens');
    await other.reserve('session');
    expect(registry.counts()).toMatchObject({ tokens: 1 });
  });

  it('refuses every new token and session once the run is interrupted', async () => {
    const { registry, run } = await served({ tokens: 9, sessions: 9 });
    registry.stop();
    const err = await runLedger(run).reserve('session').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RunInterrupted);
    expect(err).toMatchObject({ code: 'RUN_INTERRUPTED' });
  });

  it('registers a session before it is used, and reports its close', async () => {
    const { registry, run } = await served({ tokens: 9, sessions: 9 });
    const session = { env: 'cert', token: 'T-1', conversationId: 'c-1', cpaId: 'A1B2' } as const;
    await registerSession(run, session);
    expect(registry.openSessions()).toEqual([session]);
    await unregisterSession(run, 'T-1');
    expect(registry.openSessions()).toEqual([]);
    expect(registry.counts()).toMatchObject({ sessionsOpened: 1, sessionsClosed: 1 });
  });

  it('counts in the worker itself when the run has no registry (the simulator, plain vitest)', async () => {
    const ledger = runLedger(defaultRunConfig({ budget: { tokens: 1, sessions: 0, requestsPerSecond: 100, concurrency: 1 } }));
    await ledger.reserve('token');
    await expect(ledger.reserve('session')).rejects.toMatchObject({ code: 'BUDGET_EXHAUSTED', resource: 'sessions', limit: 0 });
    await registerSession(defaultRunConfig(), { env: 'cert', token: 'T', conversationId: '', cpaId: '' }); // nothing to do
  });
});
