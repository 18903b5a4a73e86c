import { limits, restEndpoints, soapActions, type Environment } from '../catalog/index.ts';
// Imported module by module, not through ../sim/index.ts: that re-exports the MSW handlers, and loading MSW costs
// every test file half a second.
import type { SimAccount } from '../sim/accounts.ts';
import { DriftingClock, ManualClock } from '../sim/clock.ts';
import { SimCore } from '../sim/core.ts';
import { defaultAccounts } from '../sim/default-accounts.ts';
import { DEFAULT_PROFILE, profileFaultCodes, type LatitudeProfile } from '../sim/latitude.ts';
import { offeredSoapAction } from '../sim/soap.ts';
import { startSimServer } from '../sim/server.ts';
import { knowledge, type Declarations } from './knowledge.ts';
import { createTransport } from './transport.ts';
import type { Account, Target } from './types.ts';

export interface SimTargetOptions {
  readonly defects?: readonly string[];
  readonly seed?: number;
  readonly requestTimeoutMs?: number;
  /** `manual` (default): time stands still unless moved. `drifting`: real time, and it can be moved forward. */
  readonly clock?: 'manual' | 'drifting';
  /** The conforming variant of the service to simulate (`DEFAULT_PROFILE`: as the public service answers). */
  readonly profile?: LatitudeProfile;
  /** Serve over HTTPS with this key and certificate, trusting `tls.ca`. */
  readonly tls?: { readonly key: string; readonly cert: string; readonly ca: string };
}

export function toAccount(a: SimAccount): Account {
  return { epr: a.epr, pcc: a.pcc, password: a.password, restDomain: a.restDomain, soapDomain: a.soapDomain, ...(a.groupAlternatives && { groupAlternatives: a.groupAlternatives }) };
}

const restRef = (e: (typeof restEndpoints)[number]) => `${e.method ?? 'GET'} ${e.path}${e.query ? `?${e.query}` : ''}`;

/** What the simulator declares about its APIs and its extra accounts, as a QA engineer would for a live service. */
export function simDeclarations(accounts: ReturnType<typeof defaultAccounts>, profile: LatitudeProfile = DEFAULT_PROFILE): Declarations {
  const sessionlessRest = restEndpoints.filter((e) => e.accepts.includes('sessionless'));
  const offered = soapActions.flatMap((a) => offeredSoapAction(profile, a.action) ?? []);
  return {
    tokenKinds: Object.fromEntries([
      ...restEndpoints.map((e) => [restRef(e), e.accepts] as const),
      ...offered.filter((a) => a.purpose === 'business' || a.purpose === 'ping').map((a) => [a.action, a.accepts] as const),
    ]),
    otherAgency: {
      account: toAccount(accounts.otherAgency),
      agencyApis: [...sessionlessRest.filter((e) => !e.public && !e.amendment).map(restRef), 'OTA_HotelAvailLLSRQ'],
    },
    portal: {
      account: toAccount(accounts.portal),
      publicApis: sessionlessRest.filter((e) => e.public).map(restRef),
      otherApis: sessionlessRest.filter((e) => !e.public).map(restRef),
    },
    noAmendment: {
      account: toAccount(accounts.noAmendment),
      amendmentApis: [...sessionlessRest.filter((e) => e.amendment).map(restRef), ...offered.filter((a) => a.amendment).map((a) => a.action)],
    },
    certOnly: toAccount(accounts.certOnly),
  };
}

/**
 * The built-in simulator as a target: a fresh core on a manual clock, served on loopback so that the checks talk
 * real HTTP through the one transport, with in-process control of the clock and accounts.
 */
export async function createSimTarget(options: SimTargetOptions = {}): Promise<Target & { readonly core: SimCore }> {
  const clock = options.clock === 'drifting' ? new DriftingClock() : new ManualClock();
  const profile = options.profile ?? DEFAULT_PROFILE;
  const accounts = defaultAccounts(options.seed, { poolSize: profile.poolSize, sessionTimeoutSeconds: profile.sessionTimeoutSeconds });
  const core = new SimCore({ clock, accounts: accounts.accounts, defects: options.defects ?? [], seed: options.seed ?? 1, profile });
  const latency = profile.latencyMs;
  const server = await startSimServer(core, { ...(options.tls && { tls: options.tls }), ...(latency > 0 && { delay: () => latency }) });
  const transport = createTransport({ timeoutMs: options.requestTimeoutMs ?? 5_000, ...(options.tls && { ca: options.tls.ca }) });
  const envs: Environment[] = ['cert', 'prod'];
  let advanced = 0;
  return {
    // What a QA engineer would write in the config of this service: its APIs' token kinds and its own fault codes.
    ...knowledge({ declared: simDeclarations(accounts, profile), faultCodes: profileFaultCodes(profile) }),
    name: options.defects?.length ? `simulator (defects: ${options.defects.join(', ')})` : 'simulator',
    kind: 'sim',
    core,
    environments: server.urls,
    accounts: Object.fromEntries(envs.map((env) => [env, toAccount(accounts.main[env])])),
    sessionPoolSize: accounts.main.cert.poolSize,
    sessionTimeoutSeconds: accounts.main.cert.sessionTimeoutSeconds ?? limits.defaultSessionTimeoutSeconds,
    slotReleaseMs: 0,
    allowOptIn: true,
    transport,
    control: {
      async advanceClock(seconds) {
        clock.advance(seconds);
        advanced += seconds;
      },
      get advancedSeconds() {
        return advanced;
      },
      async addAccount(env, account) {
        // A new account has the main account's permissions (APIs, amendments) unless told otherwise.
        const main = accounts.main[env];
        core.addAccount(env, { apis: main.apis, amendments: main.amendments, ...account });
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
