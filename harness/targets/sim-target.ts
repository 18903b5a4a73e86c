import { limits, type Environment } from '../spec/index.ts';
// Imported module by module, not through ../sim/index.ts: that re-exports the MSW handlers, and loading MSW costs
// every test file half a second.
import type { SimAccount } from '../sim/accounts.ts';
import { DriftingClock, ManualClock } from '../sim/clock.ts';
import { SimCore } from '../sim/core.ts';
import { defaultAccounts } from '../sim/default-accounts.ts';
import { startSimServer } from '../sim/server.ts';
import { createTransport } from './transport.ts';
import type { Account, Target } from './types.ts';

export interface SimTargetOptions {
  readonly defects?: readonly string[];
  readonly seed?: number;
  readonly requestTimeoutMs?: number;
  /** `manual` (default): time stands still unless moved. `drifting`: real time, and it can be moved forward. */
  readonly clock?: 'manual' | 'drifting';
  /** Serve over HTTPS with this key and certificate, trusting `tls.ca`. */
  readonly tls?: { readonly key: string; readonly cert: string; readonly ca: string };
}

export function toAccount(a: SimAccount): Account {
  return { epr: a.epr, pcc: a.pcc, password: a.password, restDomain: a.restDomain, soapDomain: a.soapDomain };
}

/**
 * The built-in simulator as a target: a fresh core on a manual clock, served on loopback so that the checks talk
 * real HTTP through the one transport, with in-process control of the clock and accounts.
 */
export async function createSimTarget(options: SimTargetOptions = {}): Promise<Target & { readonly core: SimCore }> {
  const clock = options.clock === 'drifting' ? new DriftingClock() : new ManualClock();
  const accounts = defaultAccounts(options.seed);
  const core = new SimCore({ clock, accounts: accounts.accounts, defects: options.defects ?? [], seed: options.seed ?? 1 });
  const server = await startSimServer(core, options.tls ? { tls: options.tls } : {});
  const transport = createTransport({ timeoutMs: options.requestTimeoutMs ?? 5_000, ...(options.tls && { ca: options.tls.ca }) });
  const envs: Environment[] = ['cert', 'prod'];
  return {
    name: options.defects?.length ? `simulator (defects: ${options.defects.join(', ')})` : 'simulator',
    kind: 'sim',
    core,
    environments: server.urls,
    accounts: Object.fromEntries(envs.map((env) => [env, toAccount(accounts.main[env])])),
    sessionPoolSize: accounts.main.cert.poolSize,
    sessionTimeoutSeconds: accounts.main.cert.sessionTimeoutSeconds ?? limits.defaultSessionTimeoutSeconds,
    allowOptIn: true,
    transport,
    control: {
      async advanceClock(seconds) {
        clock.advance(seconds);
      },
      async addAccount(env, account) {
        core.addAccount(env, account);
      },
      async events(after = 0) {
        return core.events.since(after);
      },
      async lastEventSeq() {
        return core.events.lastSeq;
      },
      async openSessions() {
        return core.openSessionCount();
      },
      async revokeToken(token) {
        return core.revokeToken(token);
      },
      extraAccounts: {
        otherAgency: toAccount(accounts.otherAgency),
        noAmendment: toAccount(accounts.noAmendment),
        portal: toAccount(accounts.portal),
        certOnly: toAccount(accounts.certOnly),
      },
    },
    async close() {
      await transport.close();
      await server.close();
    },
  };
}
