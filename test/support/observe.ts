import { expect } from 'vitest';
/**
 * For the tests of `observe`: an application built on the reference TypeScript client (used as a library, no driver)
 * and a workload that exercises every client rule traffic can show. The mutant clients are the same application with
 * one fault switched on.
 */
import { TdsClient } from '../../examples/clients/typescript/client.ts';
import type { ClientFault } from '../../examples/clients/typescript/faults.ts';
import { ClientError, type DriverEnvironment, type Environment } from '../../harness/clients/protocol.ts';
import type { Observation } from '../../harness/observe/session.ts';

export const THEMES = '/v1/lists/supported/shop/themes';

export interface AppOptions {
  readonly faults?: readonly ClientFault[];
  /** The session pool the application is configured with. */
  readonly sessionPoolSize: number;
  /** Configure the REST domain (false: leave it out, so the client uses its default). */
  readonly withDomain?: boolean;
  /** Use a wrong password in CERT. */
  readonly wrongPassword?: boolean;
  /** Another account in CERT than the main one. */
  readonly account?: { readonly epr: string; readonly pcc: string; readonly password: string };
  /** The application's own accounts, where the upstream is a live target (the proxy knows no simulator accounts then). */
  readonly accounts?: Readonly<Record<Environment, { readonly epr: string; readonly pcc: string; readonly password: string }>>;
}

const accountVars = (a: { epr: string; pcc: string; password: string }) => ({ TDS_CERT_EPR: a.epr, TDS_CERT_PCC: a.pcc, TDS_CERT_PASSWORD: a.password });

/** The reference client configured with the proxy's URLs and the simulator's accounts (from `childEnvironment()`). */
export function observedApp(observation: Observation, options: AppOptions): TdsClient {
  const own = options.accounts && {
    ...accountVars(options.accounts.cert),
    TDS_PROD_EPR: options.accounts.prod.epr, TDS_PROD_PCC: options.accounts.prod.pcc, TDS_PROD_PASSWORD: options.accounts.prod.password,
  };
  const vars: Record<string, string> = { ...observation.childEnvironment(), ...own, ...(options.account && accountVars(options.account)) };
  const environments: Partial<Record<Environment, DriverEnvironment>> = {};
  for (const env of ['cert', 'prod'] as const) {
    const E = env.toUpperCase();
    const password = vars[`TDS_${E}_PASSWORD`] as string;
    environments[env] = {
      restBaseUrl: vars[`TDS_${E}_REST_URL`] as string,
      soapUrl: vars[`TDS_${E}_SOAP_URL`] as string,
      credentials: {
        epr: vars[`TDS_${E}_EPR`] as string, pcc: vars[`TDS_${E}_PCC`] as string,
        password: options.wrongPassword && env === 'cert' ? `${password}-wrong` : password,
        ...(options.withDomain && { restDomain: 'AA' }), soapDomain: 'DEFAULT',
      },
    };
  }
  // Its back-off after a full pool, 120 ms, is over SESS-08's storm gap (STORM_GAP_MS, 100 ms): a pause, not a storm.
  return new TdsClient({ environments, sessionPoolSize: options.sessionPoolSize, faults: options.faults ?? [], poolFullBackoffMs: 120, requestTimeoutMs: 10_000 });
}

const attempt = <T>(p: Promise<T>): Promise<T | undefined> => p.catch(() => undefined);

/**
 * The workload: concurrent first REST calls, more calls with the same token, PROD calls (GET and POST), sessionless SOAP calls in
 * both environments (and again once their tokens expired), a session with calls in it closed by the application, one in PROD, a session whose call fails (with `failing`, an application on an account without the air-shop amendment), more
 * sessions at once than the pool allows, one left for shutdown, then shutdown. Every step tolerates failure (a
 * mutant client may fail any of them).
 */
export async function runWorkload(client: TdsClient, poolSize: number, failing?: TdsClient, midway?: () => void): Promise<void> {
  // Like most applications, it stops calling REST APIs once its credentials are refused (invalid_client).
  let refused = false;
  const rest = async (env: Environment) => {
    if (refused) return;
    await client.rest(env, 'GET', THEMES).catch((err: unknown) => {
      if (err instanceof ClientError && err.code === 'invalid_client') refused = true;
    });
  };
  await Promise.all([1, 2, 3].map(() => rest('cert')));
  for (let i = 0; i < 3; i++) await rest('cert');
  midway?.();
  await rest('prod');
  await rest('prod');
  // A POST API in PROD too (a client may route its tokens by method or path: ENV-02).
  if (!refused) await attempt(client.rest('prod', 'POST', '/v2.0.0/GetHotelLeadRateRQ'));
  await attempt(client.soap('cert', 'BargainFinderMaxRQ'));
  await attempt(client.soap('cert', 'BargainFinderMaxRQ'));
  await attempt(client.soap('prod', 'BargainFinderMaxRQ'));
  if (midway) {
    // Later again (the caller's clock moved on): the TokenCreateRQ tokens have expired too, and a client renews them
    // (LIFE-03); a CERT token sent to PROD before its expiry is still an unknown token there (ERR-04's clauses are
    // told apart by the time of the expiry).
    midway();
    await attempt(client.soap('cert', 'BargainFinderMaxRQ'));
    await attempt(client.soap('cert', 'BargainFinderMaxRQ'));
  }
  // An application tries again when a session cannot be had (a full pool).
  const open = async (c: TdsClient) => {
    for (let i = 0; i < 3; i++) {
      const opened = await attempt(c.openSession('cert'));
      if (opened) return opened;
    }
    return undefined;
  };
  const s = await open(client);
  if (s) {
    await attempt(client.sessionCall(s, 'OTA_PingRQ'));
    await attempt(client.sessionCall(s, 'OTA_HotelAvailLLSRQ'));
    await attempt(client.sessionCall(s, 'OTA_PingRQ'));
    await attempt(client.closeSession(s));
  }
  // A session in PROD, whose token must come from PROD (ENV-02).
  const p = await attempt(client.openSession('prod'));
  if (p) {
    await attempt(client.sessionCall(p, 'OTA_PingRQ'));
    await attempt(client.closeSession(p));
  }
  if (failing) {
    // An account without the amendment the air shop needs: the call inside the session fails (SESS-06.after-failure).
    const s2 = await attempt(failing.openSession('cert'));
    if (s2) await attempt(failing.sessionCall(s2, 'BargainFinderMaxRQ'));
    await attempt(failing.close());
  }
  const kept = await attempt(client.openSession('cert'));
  if (kept) await attempt(client.sessionCall(kept, 'OTA_PingRQ'));
  const more = await Promise.all(Array.from({ length: poolSize }, () => attempt(client.openSession('cert'))));
  for (const m of more) if (m) await attempt(client.sessionCall(m, 'OTA_PingRQ'));
  await rest('cert');
  await attempt(client.soap('cert', 'BargainFinderMaxRQ'));
  await attempt(client.close());
}

/** Every injection at once, so that one workload exercises every observable rule. */
export const ALL_INJECTIONS = ['expire-tokens-after=60', 'unauthorized-once', 'close-sessions', 'pool-full'] as const;

export interface ObservedRun {
  readonly report: import('../../harness/report/index.ts').Report;
  readonly observation: Observation;
  /** Every password and token the traffic carried (for the secret checks). */
  readonly secrets: readonly string[];
  /** The recorded exchanges, read back before the observation closed (its spool of bodies is gone after). */
  readonly exchanges: readonly import('../../harness/observe/exchange.ts').ObservedExchange[];
}

/**
 * Observes the reference client (with `faults`) through the proxy against the simulator, with every injection: the
 * workload, then (the injection clock moved past the tokens' lifetime) more calls, an application with a wrong
 * password, and shutdown. Judged as a whole run (the applications ended before the observation did).
 */
export async function observeReferenceClient(faults: readonly ClientFault[], validator: import('../../harness/soap/index.ts').EnvelopeValidator | undefined): Promise<ObservedRun> {
  const { Observation: Obs } = await import('../../harness/observe/session.ts');
  const { parseInjections } = await import('../../harness/observe/inject.ts');
  let offset = 0;
  const poolSize = 2;
  const observation = await Obs.start({ upstream: 'sim', sessionPoolSize: poolSize, injections: parseInjections([...ALL_INJECTIONS]), injectionClock: () => Date.now() + offset, keepExchanges: true });
  try {
    const app = observedApp(observation, { sessionPoolSize: poolSize, faults });
    const failing = observedApp(observation, { sessionPoolSize: poolSize, faults, account: observation.simAccounts()!.noAmendment });
    const wrong = observedApp(observation, { sessionPoolSize: poolSize, faults, wrongPassword: true });
    await runWorkload(app, poolSize, failing, () => {
      offset += 61_000;
    });
    await attempt(wrong.rest('cert', 'GET', THEMES));
    await attempt(wrong.close());
    const { report, judgement } = await observation.judge({ wholeRun: true, validator });
    // The running judge read the traffic as it came: the batch judge, on the whole of it, gives the same verdicts.
    const { judgeTraffic } = await import('../../harness/observe/judge.ts');
    const batch = await judgeTraffic(observation.proxy.exchanges(), observation.context(true), { validator });
    expect(judgement.verdicts).toEqual(batch.verdicts);
    const exchanges = observation.proxy.exchanges().map((x) => ({
      ...x, request: { method: x.request.method, url: x.request.url, path: x.request.path, headers: x.request.headers, body: x.request.body },
      ...(x.response && { response: { status: x.response.status, headers: x.response.headers, body: x.response.body } }),
    }));
    const secrets = [
      ...Object.values(observation.simAccounts()!.accounts).flat().map((a) => a.password),
      ...exchanges.flatMap((x) => [...`${x.request.body}\n${x.response?.body ?? ''}`.matchAll(/T1RLAQ[^"<\s]+|Shared\/IDL[^"<\s]+/g)].map((m) => m[0])),
    ];
    return { report, observation, secrets, exchanges };
  } finally {
    await observation.close();
  }
}
