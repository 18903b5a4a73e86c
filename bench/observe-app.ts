/**
 * The application `bench/observe.ts` observes: a busy application on the reference TypeScript client, run in its own
 * process as `observe -- <command>` runs one (the addresses and accounts in `TDS_*` variables). Two clients (the main
 * accounts in CERT and PROD; another account in CERT, `BENCH_OTHER_*`), each with several workers at once: REST calls,
 * sessionless SOAP calls, sessions opened, used and closed. The observer moves the clients' clock (`{ offset }`
 * messages, ms) and says when to stop (`{ stop: true }`); the application then closes its clients and exits.
 */
import { TdsClient } from '../examples/clients/typescript/client.ts';
import type { DriverEnvironment } from '../harness/clients/protocol.ts';
import type { Environment } from '../harness/catalog/index.ts';

const THEMES = '/v1/lists/supported/shop/themes';
/** The session pool the clients are configured with. */
const POOL = Number(process.env.BENCH_POOL ?? 4);

let offset = 0;
let stop = false;
process.on('message', (m: { offset?: number; stop?: boolean }) => {
  if (m.offset !== undefined) offset = m.offset;
  if (m.stop) stop = true;
});
const now = () => Date.now() + offset;
const v = (name: string) => process.env[name] as string;

function client(cert: { epr: string; pcc: string; password: string }, withProd: boolean): TdsClient {
  const environments: Partial<Record<Environment, DriverEnvironment>> = {};
  for (const env of withProd ? (['cert', 'prod'] as const) : (['cert'] as const)) {
    const E = env.toUpperCase();
    const account = env === 'cert' ? cert : { epr: v('TDS_PROD_EPR'), pcc: v('TDS_PROD_PCC'), password: v('TDS_PROD_PASSWORD') };
    environments[env] = { restBaseUrl: v(`TDS_${E}_REST_URL`), soapUrl: v(`TDS_${E}_SOAP_URL`), credentials: { ...account, soapDomain: 'DEFAULT' } };
  }
  return new TdsClient({ environments, sessionPoolSize: POOL, now, poolFullBackoffMs: 50, requestTimeoutMs: 10_000 });
}

const swallow = <T>(p: Promise<T>): Promise<T | undefined> => p.catch(() => undefined);
const loop = async (body: (i: number) => Promise<unknown>) => {
  for (let i = 0; !stop; i++) await swallow(body(i));
};
const session = async (c: TdsClient, i: number) => {
  const s = await c.openSession('cert');
  for (let k = 0; k < 2 + (i % 3); k++) await swallow(c.sessionCall(s, k % 2 ? 'OTA_HotelAvailLLSRQ' : 'OTA_PingRQ'));
  await c.closeSession(s);
};

const main = client({ epr: v('TDS_CERT_EPR'), pcc: v('TDS_CERT_PCC'), password: v('TDS_CERT_PASSWORD') }, true);
const other = client({ epr: v('BENCH_OTHER_EPR'), pcc: v('BENCH_OTHER_PCC'), password: v('BENCH_OTHER_PASSWORD') }, false);
await Promise.all([
  ...[0, 1, 2].map((w) => loop((i) => main.rest((i + w) % 2 ? 'prod' : 'cert', 'GET', THEMES))),
  ...[0, 1].map((w) => loop((i) => main.soap((i + w) % 3 === 2 ? 'prod' : 'cert', 'BargainFinderMaxRQ'))),
  ...[0, 1, 2].map(() => loop((i) => session(main, i))),
  ...[0, 1].map(() => loop(() => other.rest('cert', 'GET', THEMES))),
  loop((i) => session(other, i)),
]);
for (const c of [main, other]) await swallow(c.close());
process.disconnect?.();
