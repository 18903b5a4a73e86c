/**
 * A simulator that stands in for a target: served on loopback with a learned profile's values (and, when asked, its
 * deviations), with the simulator's own accounts. `serve --profile` and `calibrate` start one.
 */
import type { Environment } from '../catalog/index.ts';
import { defaultAccounts, type DefaultAccounts } from '../sim/default-accounts.ts';
import { DriftingClock, ManualClock } from '../sim/clock.ts';
import { SimCore } from '../sim/core.ts';
import { startSimServer, type SimServer } from '../sim/server.ts';
import { standIn, type StandIn } from './serve.ts';
import type { LearnedProfile } from './types.ts';

export interface RunningStandIn extends StandIn {
  readonly server: SimServer;
  readonly core: SimCore;
  readonly accounts: DefaultAccounts;
  close(): Promise<void>;
}

export async function startStandIn(learned: LearnedProfile, options: {
  readonly withDeviations?: boolean;
  readonly seed?: number;
  readonly host?: string;
  readonly ports?: Partial<Record<Environment, number>>;
  readonly manualClock?: boolean;
  readonly control?: boolean;
} = {}): Promise<RunningStandIn> {
  const s = standIn(learned, options);
  const clock = options.manualClock ? new ManualClock(Date.now()) : new DriftingClock();
  const seed = options.seed ?? 1;
  const accounts = defaultAccounts(seed, { poolSize: s.profile.poolSize, sessionTimeoutSeconds: s.profile.sessionTimeoutSeconds });
  const core = new SimCore({ clock, accounts: accounts.accounts, defects: s.defects, seed, profile: s.profile });
  const latency = s.profile.latencyMs;
  const server = await startSimServer(core, {
    ...(options.host && { host: options.host }),
    ...(options.ports && { ports: options.ports }),
    ...(options.control && { control: { clock } }),
    ...(latency > 0 && { delay: () => latency }),
  });
  return { ...s, server, core, accounts, close: () => server.close() };
}
