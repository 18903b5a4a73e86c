/**
 * Helpers of the live-target tests: a target config file pointing at a loopback server, temporary directories and
 * environment variables that are undone after the test, and the simulator served as if it were a remote service.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DriftingClock, SimCore, startSimServer, type AccountsByEnvironment, type SimServer, type SimServerOptions } from '../../harness/sim/index.ts';
import type { Environment } from '../../harness/catalog/index.ts';
import type { LatitudeProfile } from '../../harness/sim/latitude.ts';

/** Undo steps of the current test, run in reverse order by {@link cleanUp}. */
const undo: (() => Promise<void> | void)[] = [];

export function onCleanUp(step: () => Promise<void> | void): void {
  undo.push(step);
}

/** Runs the undo steps registered since the last call (an `afterEach`/`afterAll` hook calls it). */
export async function cleanUp(): Promise<void> {
  for (const step of undo.splice(0).reverse()) await step();
}

/** A fresh temporary directory, removed at clean-up. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `tds-${prefix}-`));
  onCleanUp(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Sets (or, for `undefined`, removes) environment variables until clean-up. The nested Vitest of a run starts its
 * workers with this process's environment, so they see the same values.
 */
export function setEnv(values: Readonly<Record<string, string | undefined>>): void {
  const saved = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  onCleanUp(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });
}

/** The proxy variables the live transport reads: removed, so that loopback targets are reached directly. */
export const NO_PROXY_ENV = { HTTPS_PROXY: undefined, https_proxy: undefined } as const;

export interface ConfigAccount {
  readonly epr: string;
  readonly pcc: string;
  /** The environment variable the config reads the password from. */
  readonly passwordEnv: string;
  /** The account's iPCC or organization (CRED-05). */
  readonly groupAlternatives?: readonly string[];
}

export interface ConfigInput {
  readonly name: string;
  readonly environments: Partial<Record<Environment, { readonly restBaseUrl: string; readonly soapUrl: string }>>;
  readonly accounts: Partial<Record<Environment, ConfigAccount>>;
  readonly caFile?: string;
  readonly requestTimeoutMs?: number;
  readonly sessionPoolSize?: number;
  /**
   * The config's `slotReleaseMs`: 0 for the simulator served as it is, which releases a slot as it answers the close
   * (left out: the default, 3 s of pauses at each slot a check expects back and a deviation keeps).
   */
  readonly slotReleaseMs?: number;
  /** More keys of the config file, as they are (`correlationHeader`, say). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/** Writes a target config file (README "Target config") to `dir`; passwords as `{ "env": … }`. Returns its path. */
export function writeTargetConfig(dir: string, file: string, input: ConfigInput): string {
  const config = {
    name: input.name,
    environments: input.environments,
    accounts: Object.fromEntries(
      Object.entries(input.accounts).map(([env, a]) => [env, { epr: a.epr, pcc: a.pcc, password: { env: a.passwordEnv }, ...(a.groupAlternatives && { groupAlternatives: a.groupAlternatives }) }]),
    ),
    sessionPoolSize: input.sessionPoolSize ?? 4,
    sessionTimeoutSeconds: 900,
    allowOptIn: false,
    ...(input.caFile !== undefined && { caFile: input.caFile }),
    ...(input.requestTimeoutMs !== undefined && { requestTimeoutMs: input.requestTimeoutMs }),
    ...(input.slotReleaseMs !== undefined && { slotReleaseMs: input.slotReleaseMs }),
    ...input.extra,
  };
  const path = join(dir, file);
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
  return path;
}

/**
 * The simulator served on loopback the way a real service would be: on real time (a drifting clock nobody moves),
 * without the control endpoint, optionally over HTTPS. Closed at clean-up.
 */
export async function serveSimulator(options: {
  readonly accounts: AccountsByEnvironment;
  readonly defects?: readonly string[];
  readonly seed?: number;
  readonly tls?: { readonly key: string; readonly cert: string };
  /** The conforming variant the service answers in (the latitude profile); its latency is served too. */
  readonly profile?: LatitudeProfile;
  /** A gateway in front, which may answer a request itself (the simulator then never sees it). */
  readonly front?: SimServerOptions['front'];
}): Promise<{ core: SimCore; server: SimServer }> {
  const core = new SimCore({ clock: new DriftingClock(), accounts: options.accounts, defects: options.defects ?? [], seed: options.seed ?? 1, ...(options.profile && { profile: options.profile }) });
  const latency = options.profile?.latencyMs ?? 0;
  const server = await startSimServer(core, { ...(options.tls && { tls: options.tls }), ...(latency > 0 && { delay: () => latency }), ...(options.front && { front: options.front }) });
  onCleanUp(() => server.close());
  return { core, server };
}
