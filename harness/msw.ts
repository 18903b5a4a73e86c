/**
 * `tds-auth-conformance/msw`: the simulated service as MSW request handlers, for users' own unit tests.
 *
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createSimulator } from 'tds-auth-conformance/msw';
 *
 * const sim = createSimulator();
 * const server = setupServer(...sim.handlers);
 * server.listen({ onUnhandledRequest: 'error' });
 * // your client talks to sim.urls.cert.restBaseUrl with sim.accounts.cert; sim.clock.advance(604801) expires tokens;
 * // sim.core.events.since() shows every request your client made.
 * ```
 */
import { createSimHandlers, inProcessUrls } from './sim/msw.ts';
import { ManualClock } from './sim/clock.ts';
import { SimCore } from './sim/core.ts';
import { defaultAccounts } from './sim/default-accounts.ts';
import type { SimAccount } from './sim/accounts.ts';
import type { SimEndpoints } from './sim/server.ts';
import type { Environment } from './catalog/index.ts';

export interface Simulator {
  readonly core: SimCore;
  readonly clock: ManualClock;
  readonly handlers: ReturnType<typeof createSimHandlers>;
  readonly urls: Readonly<Record<Environment, SimEndpoints>>;
  /** The main account of each environment (same EPR and PCC, other passwords). */
  readonly accounts: Readonly<Record<Environment, SimAccount>>;
}

export interface SimulatorOptions {
  /** Simulator defects to switch on (see `harness/sim/defects.ts`). */
  readonly defects?: readonly string[];
  readonly seed?: number;
  readonly urls?: Readonly<Record<Environment, SimEndpoints>>;
}

/** A fresh simulator on a manual clock, with MSW handlers for its CERT and PROD addresses. */
export function createSimulator(options: SimulatorOptions = {}): Simulator {
  const clock = new ManualClock();
  const accounts = defaultAccounts(options.seed);
  const core = new SimCore({ clock, accounts: accounts.accounts, defects: options.defects ?? [], seed: options.seed ?? 1 });
  const urls = options.urls ?? inProcessUrls;
  return { core, clock, handlers: createSimHandlers(core, urls), urls, accounts: accounts.main };
}

export { createSimHandlers, inProcessUrls, ManualClock, SimCore, defaultAccounts };
export type { SimAccount, SimEndpoints };
