/**
 * Verdicts that hold on a deployed service (issue 27): a real nginx, started by the test on loopback with a config of
 * its own, in front of the simulator served as a live target. A plain proxy and a throttling one (429 with
 * Retry-After on REST, nginx's 503 page on SOAP) give the same verdicts as the service without a gateway; a gateway
 * that answers missing credentials itself, one that replaces SOAP faults with a page, one that rewrites every 401
 * into one body and one that caches a REST API's 401 whatever the token each fail exactly their rules; one whose upstream fails now and then (its 502 page) changes no verdict; a throttle that never lets up gives `error` RATE_LIMITED in bounded
 * time, exit 1.
 */
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RuleId } from '../../harness/catalog/index.ts';
import type { Report } from '../../harness/report/model.ts';
import { ConformanceSession } from '../../harness/run/session.ts';
import { defaultAccounts } from '../../harness/sim/default-accounts.ts';
import { nginxMissing, startNginx } from './nginx.ts';
import { cleanUp, NO_PROXY_ENV, onCleanUp, serveSimulator, setEnv, tempDir, writeTargetConfig } from './support.ts';
import { sharedSession } from '../support/shared-session.ts';

afterEach(cleanUp);

let session: ConformanceSession;
beforeAll(async () => {
  // No silent pass on a machine without nginx: the test says what to install.
  const missing = nginxMissing();
  if (missing) throw new Error(missing);
  session = await sharedSession('live');
}, 60_000);

/** The rules a gateway can change: the token endpoint's answers and errors, SOAP answers and faults, sessions. */
const ONLY: readonly RuleId[] = ['CRED-03', 'REST-02', 'REST-03', 'REST-05', 'API-01', 'API-02', 'SOAP-02', 'STOK-01', 'STOK-03', 'SESS-02', 'ERR-01', 'ERR-02', 'ERR-03', 'ERR-04', 'ERR-07', 'XPROTO-02'];

const accounts = defaultAccounts(1);

/** The simulator, optionally behind nginx with `gateway`, as a live target config. */
async function target(gateway?: { readonly locations: string; readonly http?: string; readonly deadPeerEvery?: number }): Promise<string> {
  const { server } = await serveSimulator({ accounts: accounts.accounts, seed: 1 });
  const upstream = { cert: server.urls.cert.restBaseUrl, prod: server.urls.prod.restBaseUrl };
  let origins = upstream;
  if (gateway) {
    const nginx = await startNginx(tempDir('nginx'), upstream, gateway);
    onCleanUp(() => nginx.close());
    origins = nginx.origins;
  }
  setEnv({ ...NO_PROXY_ENV, TDS_GW_CERT_PASSWORD: accounts.main.cert.password, TDS_GW_PROD_PASSWORD: accounts.main.prod.password });
  return writeTargetConfig(tempDir('gateway'), 'target.json', {
    name: gateway ? 'simulator behind nginx' : 'simulator',
    environments: { cert: { restBaseUrl: origins.cert, soapUrl: `${origins.cert}/websvc` }, prod: { restBaseUrl: origins.prod, soapUrl: `${origins.prod}/websvc` } },
    accounts: {
      cert: { epr: accounts.main.cert.epr, pcc: accounts.main.cert.pcc, passwordEnv: 'TDS_GW_CERT_PASSWORD', groupAlternatives: accounts.main.cert.groupAlternatives ?? [] },
      prod: { epr: accounts.main.prod.epr, pcc: accounts.main.prod.pcc, passwordEnv: 'TDS_GW_PROD_PASSWORD', groupAlternatives: accounts.main.prod.groupAlternatives ?? [] },
    },
  });
}

async function run(config: string, extra: { throttleWaitMs?: number; only?: readonly RuleId[] } = {}): Promise<{ report: Report; exitCode: number }> {
  return session.run({
    target: config, only: [...(extra.only ?? ONLY)], runs: 2, budget: { requestsPerSecond: 1000 }, outDir: join(tempDir('gw-out'), 'r'), write: false, quiet: true, log: () => {},
    ...(extra.throttleWaitMs !== undefined && { throttleWaitMs: extra.throttleWaitMs }),
  });
}

const statuses = (r: Report) => Object.fromEntries(r.rules.filter((x) => ONLY.includes(x.id)).map((x) => [x.id, x.status]));
const bad = (r: Report) => r.rules.filter((x) => ['fail', 'warn', 'error'].includes(x.status)).map((x) => `${x.id} ${x.status}`);

const PROXY = 'location / { proxy_pass {upstream}; }';

let direct: Record<string, string> | undefined;
async function withoutGateway(): Promise<Record<string, string>> {
  direct ??= statuses((await run(await target())).report);
  return direct;
}

describe('a real reverse proxy (nginx) in front of the service', () => {
  it('a plain proxy changes no verdict', async () => {
    const { report } = await run(await target({ locations: PROXY }));
    expect(bad(report)).toEqual([]);
    expect(statuses(report)).toEqual(await withoutGateway());
  }, 120_000);

  it('a throttling proxy (429 with Retry-After on REST, a 503 page without on SOAP) gets no fail and no warn, and the same verdicts; the throttles are counted', async () => {
    const { report, exitCode } = await run(await target({
      http: `limit_req_zone $server_port zone=rest:1m rate=40r/s;
  limit_req_zone $server_port zone=soap:1m rate=40r/s;`,
      locations: `location / { limit_req zone=rest burst=2 nodelay; limit_req_status 429; error_page 429 = @throttled; proxy_pass {upstream}; }
    location /websvc { limit_req zone=soap burst=2 nodelay; limit_req_status 503; proxy_pass {upstream}; }
    location @throttled { add_header Retry-After 1 always; default_type text/plain; return 429 "Too Many Requests"; }`,
    }));
    expect(bad(report)).toEqual([]);
    expect(statuses(report)).toEqual(await withoutGateway());
    expect(exitCode).toBe(0);
    expect(report.throttling?.throttled).toBeGreaterThan(0);
    expect(report.throttling?.gaveUp).toBe(0);
    expect(Object.keys(report.throttling?.statuses ?? {}).sort()).toEqual(expect.arrayContaining(['429']));
  }, 240_000);

  it('a gateway whose upstream fails one request in five (nginx\'s 502 page) changes no verdict; the resends are counted', async () => {
    const { report } = await run(await target({ locations: `location / { proxy_pass {upstream}; proxy_next_upstream off; }`, deadPeerEvery: 5 }));
    expect(bad(report)).toEqual([]);
    expect(statuses(report)).toEqual(await withoutGateway());
    expect(report.throttling?.gatewayResent?.['502']).toBeGreaterThan(10);
  }, 180_000);

  it('a throttle that never lets up ends its checks error RATE_LIMITED in bounded time, exit 1', async () => {
    const started = Date.now();
    const { report, exitCode } = await run(await target({ locations: 'location / { add_header Retry-After 1 always; return 429; }' }), { throttleWaitMs: 2_000, only: ['REST-03', 'ERR-01'] });
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(exitCode).toBe(1);
    for (const id of ['REST-03', 'ERR-01']) {
      const rule = report.rules.find((r) => r.id === id);
      expect(rule?.status, id).toBe('error');
      const errored = rule?.checks.find((c) => c.status === 'error');
      expect(errored && 'code' in errored ? errored.code : undefined).toBe('RATE_LIMITED');
      expect(errored && 'message' in errored ? errored.message : '').toMatch(/HTTP 429 with Retry-After: 1 on each of \d+ attempts, \d+\.\d s waited/);
    }
    expect(report.throttling?.gaveUp).toBeGreaterThan(0);
  }, 120_000);

  it.each([
    {
      name: 'answers a token request without credentials itself (an HTML 401)',
      locations: `location = /v2/auth/token { if ($http_authorization = "") { return 401; } proxy_pass {upstream}; }
    ${PROXY}`,
      fails: ['ERR-01 fail', 'ERR-03 warn'],
    },
    {
      name: 'replaces SOAP faults with an HTML page',
      locations: `location /websvc { proxy_pass {upstream}; proxy_intercept_errors on; error_page 500 = @fault; }
    location @fault { default_type text/html; return 500 "<html><body><h1>500 Internal Server Error</h1></body></html>"; }
    ${PROXY}`,
      fails: ['SOAP-02 fail', 'STOK-03 fail', 'ERR-04 fail'],
    },
    {
      name: 'rewrites every 401 of the token endpoint into one body',
      locations: `location = /v2/auth/token { proxy_pass {upstream}; proxy_intercept_errors on; error_page 401 = @uniform; }
    location @uniform { default_type application/json; return 401 '{"error":"invalid_client","error_description":"Client authentication failed"}'; }
    ${PROXY}`,
      fails: ['ERR-01 fail', 'ERR-02 fail'],
    },
    {
      name: 'caches a REST API\'s 401 for a second under a key without the Authorization header',
      http: 'proxy_cache_path cache keys_zone=api:1m;',
      locations: `location / { proxy_pass {upstream}; proxy_cache api; proxy_cache_key $request_uri; proxy_cache_valid 401 1s; proxy_ignore_headers Cache-Control Expires Set-Cookie; }`,
      fails: ['API-01 fail'],
    },
  ])('a gateway that $name fails exactly its rules: $fails', async ({ locations, fails, ...gateway }) => {
    const { report } = await run(await target({ locations, ...('http' in gateway && { http: gateway.http }) }));
    expect(bad(report)).toEqual(fails);
  }, 180_000);
});
