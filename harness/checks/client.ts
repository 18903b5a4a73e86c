import type fc from 'fast-check';
import { it } from 'vitest';
import { ClientError, type ClientAdapter, type DriverCredentials, type DriverEnvironment } from '../clients/protocol.ts';
import { DriverFailure } from '../clients/driver-process.ts';
import { REFERENCE_CLIENT, startClient } from '../clients/load.ts';
import type { SimEvent } from '../sim/index.ts';
import type { Environment, RuleId } from '../spec/index.ts';
import { createSimTarget, type Account, type SimControl } from '../targets/index.ts';
import { checkClauses, checkProperty, runCheck, titleFor, PrerequisiteFailed, type CheckContext, type CheckOptions, type CheckRunOptions } from './rule-test.ts';
import { registerSecret } from './secrets.ts';
import { runConfig } from './target.ts';

/** What a client check gets: the client under test, and the simulator it talks to. */
export interface ClientContext extends CheckContext {
  readonly client: ClientAdapter;
  readonly sim: SimControl;
  /**
   * Configures the client with the simulator's environments and accounts (the main ones unless given). `omitDomains`
   * leaves the domains out, so the client must use its defaults.
   */
  configure(options?: { accounts?: Partial<Record<Environment, Account>>; omitDomains?: boolean; sessionPoolSize?: number; environments?: readonly Environment[] }): Promise<void>;
  /** The simulator's events since the check started (or since `mark()`). */
  events(): Promise<readonly SimEvent[]>;
  /** Starts a new window of events (for properties: one window per case). */
  mark(): Promise<void>;
}

/** Calls a client op; a client that does not support it makes the check `skipped`, not failed. */
export async function op<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof ClientError && err.kind === 'unsupported') throw new PrerequisiteFailed(`the client does not support ${what}: ${err.message}`);
    throw err;
  }
}

function formatEvent(e: SimEvent): string {
  const auth = e.headers.authorization ? ` [authorization: ${e.headers.authorization.split(/\s/)[0]} …]` : '';
  return `#${e.seq} ${e.env} ${e.method} ${e.path} → ${e.status} ${e.outcome}${e.action ? ` ${e.action}` : ''}${auth}`;
}

/** Starts a simulator and the client under test, runs `runBody`, and always shuts the client down and stops the simulator. */
async function withClient(runBody: (make: (base: CheckContext) => ClientContext, options: CheckRunOptions) => Promise<void>): Promise<void> {
  const run = runConfig();
  const target = await createSimTarget({ seed: run.seed, requestTimeoutMs: run.requestTimeoutMs, clock: 'drifting' });
  const sim = target.control!;
  for (const a of [...Object.values(target.accounts), ...Object.values(sim.extraAccounts)]) registerSecret(a?.password);
  let client: (ClientAdapter & { kill?: () => void }) | undefined;
  let since = 0;
  let shutDown = false;
  try {
    const started = await startClient(run.client ?? REFERENCE_CLIENT, run.clientTimeoutMs === undefined ? {} : { opTimeoutMs: run.clientTimeoutMs });
    client = started;
    const clientCtx = (base: CheckContext): ClientContext => ({
      ...base,
      client: {
        ...started,
        configure: (r) => started.configure(r),
        restCall: (r) => started.restCall(r),
        soapCall: (r) => started.soapCall(r),
        openSession: (r) => started.openSession(r),
        sessionCall: (r) => started.sessionCall(r),
        closeSession: (r) => started.closeSession(r),
        shutdown: async () => {
          shutDown = true;
          await started.shutdown();
        },
      },
      sim,
      async configure(options = {}) {
        const envs = options.environments ?? (['cert', 'prod'] as const);
        const environments: Partial<Record<Environment, DriverEnvironment>> = {};
        for (const env of envs) {
          const account = options.accounts?.[env] ?? target.accounts[env];
          const urls = target.environments[env];
          if (!account || !urls) continue;
          registerSecret(account.password);
          const credentials: DriverCredentials = options.omitDomains
            ? { epr: account.epr, pcc: account.pcc, password: account.password }
            : { epr: account.epr, pcc: account.pcc, password: account.password, restDomain: account.restDomain, soapDomain: account.soapDomain };
          environments[env] = { restBaseUrl: urls.restBaseUrl, soapUrl: urls.soapUrl, credentials };
        }
        try {
          await started.configure({ environments, sessionPoolSize: options.sessionPoolSize ?? target.sessionPoolSize ?? 4 });
        } catch (err) {
          // A client that cannot be configured cannot be examined at all: an error, not a failure of a client rule.
          if (err instanceof ClientError) throw new DriverFailure('DRIVER_PROTOCOL', `the client refused "configure" (error kind "${err.kind}"): ${err.message}`);
          throw err;
        }
      },
      async events() {
        return (await sim.events(since)).filter((e) => !e.path.startsWith('/__sim'));
      },
      async mark() {
        since = await sim.lastEventSeq();
      },
    });
    await runBody(clientCtx, {
      target,
      evidence: async () => {
        const events = await sim.events(since);
        return events.length ? [`simulator events (last ${Math.min(events.length, 12)} of ${events.length}):\n${events.slice(-12).map(formatEvent).join('\n')}`] : [];
      },
    });
  } finally {
    if (client && !shutDown) await client.shutdown().catch(() => undefined);
    client?.kill?.();
    await target.close();
  }
}

/**
 * A check of the client under test: a fresh simulator (its clock moving on its own) and a fresh client for this
 * check; the client rules are judged on the simulator's event log.
 */
export function clientTest(ids: RuleId | readonly RuleId[], title: string, body: (ctx: ClientContext) => Promise<void>, options: CheckOptions): void {
  const list = typeof ids === 'string' ? [ids] : ids;
  const fullTitle = titleFor(list, title);
  checkClauses(list, fullTitle, options.clauses);
  it(fullTitle, async (test) => {
    await withClient((make, runOptions) => runCheck(test, list, (base) => body(make(base)), { ...runOptions, clauses: options.clauses }));
  }, options.timeout ?? 120_000);
}

/** A property over the client under test: one simulator and one client for the whole property, a window of events per case. */
export function clientProperty<T>(
  ids: RuleId | readonly RuleId[],
  title: string,
  arbitrary: fc.Arbitrary<T>,
  predicate: (ctx: ClientContext, value: T) => Promise<void>,
  options: CheckOptions & { numRuns?: number },
): void {
  const list = typeof ids === 'string' ? [ids] : ids;
  const fullTitle = titleFor(list, title);
  checkClauses(list, fullTitle, options.clauses);
  it(fullTitle, async (test) => {
    await withClient((make, runOptions) =>
      checkProperty<T, ClientContext>(list, fullTitle, arbitrary, async (ctx, value) => {
        await ctx.mark();
        await predicate(ctx, value);
      }, options.numRuns, (body, extra) => runCheck(test, list, (base) => body(make(base)), { ...runOptions, ...extra, clauses: options.clauses })),
    );
  }, options.timeout ?? 180_000);
}
