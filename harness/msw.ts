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
import { loadLearnedProfile, standIn } from './profile/serve.ts';
import type { LearnedProfile } from './profile/types.ts';
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
  /**
   * A stand-in for a learned target: the path of the `profile.json` a live run wrote (or its parsed contents); the
   * simulator then answers in that target's style (see docs/simulator.md, "A stand-in for your CERT").
   */
  readonly profile?: string | LearnedProfile;
  /** With `profile`: also the target's deviations the simulator can reproduce. */
  readonly withDeviations?: boolean;
}

/** A fresh simulator on a manual clock, with MSW handlers for its CERT and PROD addresses. */
export function createSimulator(options: SimulatorOptions = {}): Simulator {
  const clock = new ManualClock();
  const learned = typeof options.profile === 'string' ? loadLearnedProfile(options.profile) : options.profile;
  const stand = learned && standIn(learned, { withDeviations: options.withDeviations ?? false });
  const accounts = defaultAccounts(options.seed, stand ? { poolSize: stand.profile.poolSize, sessionTimeoutSeconds: stand.profile.sessionTimeoutSeconds } : {});
  const core = new SimCore({
    clock, accounts: accounts.accounts, defects: [...(options.defects ?? []), ...(stand?.defects ?? [])], seed: options.seed ?? 1, ...(stand && { profile: stand.profile }),
  });
  const urls = options.urls ?? inProcessUrls;
  return { core, clock, handlers: createSimHandlers(core, urls), urls, accounts: accounts.main };
}

export { createSimHandlers, inProcessUrls, ManualClock, SimCore, defaultAccounts };
export type { LearnedProfile, SimAccount, SimEndpoints };
