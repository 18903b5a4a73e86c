/**
 * A live run whose SessionCloseRQs are answered by a gateway's error page (not SOAP) a few times: the sessions may
 * still be open, so the run keeps them and closes them at its end. Before, a check counted such a session closed and let
 * it go: the service kept it, the report said every session was closed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../harness/package-info.ts';
import { defaultAccounts, ManualClock, SimCore, startSimServer, type SimServer } from '../../harness/sim/index.ts';

const readBody = (req: IncomingMessage) => new Promise<Buffer>((resolve) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => resolve(Buffer.concat(chunks)));
});

/** A proxy to `upstream` that answers the first `pages` SessionCloseRQs itself, with a 502 HTML page. */
async function gateway(upstream: string, pages: number): Promise<{ url: string; server: Server; paged: () => number }> {
  let paged = 0;
  const target = new URL(upstream);
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    if (paged < pages && /<(?:\w+:)?Action>\s*SessionCloseRQ/.test(body.toString('utf8'))) {
      paged++;
      res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      return;
    }
    const out = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, paged: () => paged };
}

const dir = mkdtempSync(join(tmpdir(), 'tds-close-answer-'));
const accounts = defaultAccounts(5);
const core = new SimCore({ clock: new ManualClock(Date.now()), accounts: accounts.accounts });
let sim: SimServer;
let gw: Awaited<ReturnType<typeof gateway>>;

beforeAll(async () => {
  sim = await startSimServer(core);
  gw = await gateway(sim.urls.cert.soapUrl.replace(/\/[^/]*$/, ''), 2);
});
afterAll(async () => {
  await new Promise((resolve) => gw.server.close(resolve));
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

it('sessions whose SessionCloseRQ got a gateway error page are closed at the end of the run, and the report counts them right', async () => {
  const soapPath = new URL(sim.urls.cert.soapUrl).pathname;
  const config = join(dir, 'target.json');
  writeFileSync(config, JSON.stringify({
    name: 'simulator behind a gateway',
    environments: { cert: { restBaseUrl: sim.urls.cert.restBaseUrl, soapUrl: `${gw.url}${soapPath}` } },
    accounts: { cert: { epr: accounts.main.cert.epr, pcc: accounts.main.cert.pcc, password: { env: 'TDS_TEST_CERT_PASSWORD' } } },
    sessionPoolSize: 4,
  }));
  const out = join(dir, 'out');
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [join(PACKAGE_ROOT, 'bin/tds-conformance.js'), 'run', '--target', config, '--only', 'STOK-02,SESS-02', '--out', out, '--quiet'], {
      cwd: PACKAGE_ROOT, env: { ...process.env, TDS_TEST_CERT_PASSWORD: accounts.main.cert.password, HTTPS_PROXY: '', https_proxy: '' }, stdio: 'ignore',
    });
    child.once('exit', resolve);
  });
  expect(gw.paged()).toBe(2);
  expect(core.openSessionCount(), 'sessions left open on the service').toBe(0);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { resources: { sessionsOpened: number; sessionsClosed: number } };
  expect(report.resources.sessionsOpened).toBeGreaterThan(0);
  expect(report.resources.sessionsClosed).toBe(report.resources.sessionsOpened);
  expect(code === 0 || code === 1).toBe(true);
}, 120_000);
