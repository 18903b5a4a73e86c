/**
 * A worker's side of the run's session registry (live runs through the CLI): every session a check opens is
 * registered with the main process before its token is used, every close is reported, and token- and
 * session-creating requests are counted against the one budget of the run. Without a registry (the simulator, plain
 * `npx vitest`), sessions are only known to this worker and the budget is counted here.
 */
import { registryClient, type RegisteredSession, type RegistryClient } from '../registry/index.ts';
import type { RouteOutcome } from '../registry/registry.ts';
import type { RunConfig } from '../run-config.ts';
import { onNewRun } from '../run-scope.ts';
import { BudgetExhausted, LIVE_BUDGET, localLedger, RunInterrupted, type BudgetState, type Ledger } from './budget.ts';

let client: { readonly url: string; readonly client: RegistryClient } | undefined;
const localUsed: BudgetState = { tokens: 0, sessions: 0 };
onNewRun(() => {
  client = undefined;
  localUsed.tokens = 0;
  localUsed.sessions = 0;
});

function clientFor(run: RunConfig): RegistryClient | undefined {
  const endpoint = run.registry;
  if (!endpoint) return undefined;
  if (client?.url !== endpoint.url) client = { url: endpoint.url, client: registryClient(endpoint) };
  return client.client;
}

/** The main process's registry of a live run through the CLI, or `undefined` elsewhere. */
export function runRegistry(run: RunConfig): RegistryClient | undefined {
  return clientFor(run);
}

/** Where this run counts its tokens and sessions: the main process's registry, or this worker. */
export function runLedger(run: RunConfig): Ledger {
  const registry = clientFor(run);
  if (!registry) return localLedger(run.budget ?? LIVE_BUDGET, localUsed);
  return {
    async reserve(kind, root) {
      const answer = await registry.reserve(kind, root);
      if (answer.ok) return;
      if (answer.reason === 'interrupted') throw new RunInterrupted();
      throw new BudgetExhausted(answer.resource, answer.limit);
    },
    async refund(kind) {
      await registry.refund(kind).catch(() => undefined);
    },
  };
}

/** Registers a session just opened, before its token is used. Throws when the main process does not answer. */
export async function registerSession(run: RunConfig, session: RegisteredSession): Promise<void> {
  await clientFor(run)?.opened({ env: session.env, token: session.token, conversationId: session.conversationId, cpaId: session.cpaId });
}

/** Reports that the session's close was answered. Never throws: the main process closes it again if it must. */
export async function unregisterSession(run: RunConfig, token: string): Promise<void> {
  await clientFor(run)?.closed(token).catch(() => undefined);
}

let creating = 0;
const idle: (() => void)[] = [];

/**
 * Runs a session-creating exchange (request, answer, registration) as one: a worker signalled meanwhile (Ctrl-C to
 * the process group) finishes it before it ends, so that a session the service opened is registered and the main
 * process can close it.
 */
export async function creatingSession<T>(work: () => Promise<T>): Promise<T> {
  creating++;
  try {
    return await work();
  } finally {
    if (--creating === 0) for (const done of idle.splice(0)) done();
  }
}

/**
 * How much longer than the request time limit a signalled worker waits for a session create in flight before it ends:
 * a slow service may answer a SessionCreateRQ up to the time limit, and the session it opens must be registered to be
 * closed.
 */
const DRAIN_MARGIN_MS = 1_000;
/** Set on the process once the handlers are on (a worker that re-imports this module must not add them twice). */
const DRAIN_INSTALLED = Symbol.for('tds-conformance.drain-installed');

/**
 * In a worker of a live run through the CLI (one with a registry): SIGINT and SIGTERM end the worker as they would,
 * but only once a session create in flight is registered (at most the request time limit and {@link DRAIN_MARGIN_MS}).
 * Elsewhere nothing changes.
 */
export function installDrain(run: RunConfig): void {
  const flags = globalThis as { [DRAIN_INSTALLED]?: boolean };
  if (flags[DRAIN_INSTALLED] || !run.registry) return;
  flags[DRAIN_INSTALLED] = true;
  const onSignal = (signal: NodeJS.Signals) => {
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.kill(process.pid, signal); // the default action now: the worker ends by the signal
    };
    if (creating === 0) return end();
    idle.push(end);
    setTimeout(end, Math.min(2_147_483_647, run.requestTimeoutMs + DRAIN_MARGIN_MS));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}


/** What this worker learnt of routes, where no registry holds the run's (the simulator, plain `npx vitest`): by target. */
const localRoutes = new WeakMap<object, Map<string, RouteOutcome>>();

/**
 * What the run knows of a route to a token (by its key): a live run asks the main process, so that every worker and
 * test file knows what one learnt; elsewhere this worker knows what it learnt on `target`.
 */
export async function knownRoute(run: RunConfig, target: object, key: string): Promise<RouteOutcome | undefined> {
  const registry = clientFor(run);
  if (registry) return registry.route(key);
  return localRoutes.get(target)?.get(key);
}

/** Tells the run what a route showed. Never throws: knowing less only costs requests. */
export async function learnRoute(run: RunConfig, target: object, key: string, outcome: RouteOutcome): Promise<void> {
  const registry = clientFor(run);
  if (registry) return registry.learned(key, outcome).catch(() => undefined);
  let map = localRoutes.get(target);
  if (!map) localRoutes.set(target, (map = new Map()));
  map.set(key, outcome);
}
