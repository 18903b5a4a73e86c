import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-info.ts';
import { defaultAccounts, ManualClock, SimCore, startSimServer, type SimServer } from '../sim/index.ts';

/**
 * A live run is interrupted mid-way (SIGINT, SIGTERM) while it holds sessions open on a simulator served on
 * loopback: the harness must close every session it opened and still write the report of what ran.
 */
describe('interrupting a live run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tds-interrupt-'));
  const accounts = defaultAccounts(3);
  const core = new SimCore({ clock: new ManualClock(Date.now()), accounts: accounts.accounts });
  let server: SimServer;
  let config: string;

  beforeAll(async () => {
    // Pings are slow, so that the run is caught with sessions open.
    server = await startSimServer(core, { delay: (r) => (r.body.includes('OTA_PingRQ') ? 1_500 : 0) });
    config = join(dir, 'target.json');
    writeFileSync(config, JSON.stringify({
      name: 'loopback simulator',
      environments: { cert: server.urls.cert, prod: server.urls.prod },
      accounts: {
        cert: { epr: accounts.main.cert.epr, pcc: accounts.main.cert.pcc, password: { env: 'TDS_TEST_CERT_PASSWORD' } },
        prod: { epr: accounts.main.prod.epr, pcc: accounts.main.prod.pcc, password: { env: 'TDS_TEST_PROD_PASSWORD' } },
      },
      sessionPoolSize: 4,
    }));
  });

  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['SIGINT', 'SIGTERM'] as const)('on %s, closes every session it opened and writes the report', async (signal) => {
    const out = join(dir, signal);
    const child = spawn(process.execPath, [join(PACKAGE_ROOT, 'bin/tds-conformance.js'), 'run', '--target', config, '--only', 'SOAP-02,SESS-02,ERR-04', '--allow-opt-in', '--rate', '1000', '--out', out, '--quiet'], {
      cwd: PACKAGE_ROOT,
      env: { ...process.env, TDS_TEST_CERT_PASSWORD: accounts.main.cert.password, TDS_TEST_PROD_PASSWORD: accounts.main.prod.password },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    expect(core.openSessionCount(), 'sessions were left open before this run').toBe(0);
    for (let i = 0; i < 3_000 && core.openSessionCount() === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(core.openSessionCount(), 'the run opened no session to interrupt').toBeGreaterThan(0);
    child.kill(signal);
    const code = await exited;
    expect(stderr).toContain(`${signal}: stopping the run, closing its sessions and writing the report`);
    expect(code).toBe(130);
    expect(core.openSessionCount()).toBe(0);
    expect(existsSync(join(out, 'report.json'))).toBe(true);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { completion: string; resources: { sessionsOpened: number; sessionsClosed: number } };
    expect(report.completion).toBe('interrupted');
  }, 90_000);
});
