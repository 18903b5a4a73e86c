/**
 * What a QA engineer hands the service's team after a CERT run (issue 23), against a live target on loopback whose
 * front server logs every request it receives: the correlation header reaches the service on every request (and
 * does not when switched off), the report's correlation IDs are found in that log, the run's HAR holds the same
 * requests, opens as HAR 1.2 and holds no secret, and `judge` on that HAR contradicts no verdict of the run.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { judgeCommand } from '../../harness/cli/judge.ts';
import { readHar } from '../../harness/har/har.ts';
import { PACKAGE_ROOT } from '../../harness/package-info.ts';
import type { Report } from '../../harness/report/model.ts';
import type { RunOptions } from '../../harness/runner.ts';
import { sharedRun } from '../support/shared-session.ts';
import { simAccount } from '../../harness/sim/index.ts';
import { startLoggingProxy, type LoggingProxy } from './logging-proxy.ts';
import { cleanUp, NO_PROXY_ENV, onCleanUp, serveSimulator, setEnv, tempDir, writeTargetConfig } from './support.ts';

afterEach(cleanUp);

const PASSWORD = 'correlation-secret-7';

/** The simulator behind a logging front server (CERT only), and a target config pointing at the front server. */
async function loggedTarget(extra: Readonly<Record<string, unknown>> = {}, refuseHeader?: string): Promise<{ config: string; proxy: LoggingProxy }> {
  const account = simAccount({ epr: '7971', pcc: 'Z2NL', password: PASSWORD, poolSize: 4 });
  const { server } = await serveSimulator({ accounts: { cert: [account], prod: [] } });
  const proxy = await startLoggingProxy(server.urls.cert.restBaseUrl, refuseHeader === undefined ? {} : { refuseHeader });
  onCleanUp(() => proxy.close());
  setEnv({ ...NO_PROXY_ENV, TDS_CORRELATION_PASSWORD: PASSWORD });
  const soapPath = new URL(server.urls.cert.soapUrl).pathname;
  const config = writeTargetConfig(tempDir('correlation'), 'target.json', {
    name: 'logged',
    environments: { cert: { restBaseUrl: proxy.origin, soapUrl: `${proxy.origin}${soapPath}` } },
    accounts: { cert: { epr: '7971', pcc: 'Z2NL', passwordEnv: 'TDS_CORRELATION_PASSWORD' } },
    extra,
  });
  return { config, proxy };
}

const ONLY = ['CRED-01', 'REST-03', 'REST-05', 'SOAP-02', 'STOK-01', 'SESS-05', 'ERR-01'] as const;

async function run(config: string, options: Partial<RunOptions> = {}): Promise<Report> {
  const { report } = await sharedRun({
    target: config, only: [...ONLY], runs: 2, budget: { requestsPerSecond: 1000 }, outDir: join(tempDir('correlation-out'), 'r'),
    quiet: true, log: () => {}, ...options,
  });
  return report;
}

/** `tds-conformance run` in a child process, as a user runs it: its exit code and what it wrote to stderr. */
function cli(args: readonly string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['bin/tds-conformance.js', 'run', '--rate', '1000', '--quiet', ...args], { cwd: PACKAGE_ROOT, env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000 }, (err, _out, stderr) => {
      if (err && typeof err.code !== 'number') reject(err);
      else resolve({ code: err ? (err.code as number) : 0, stderr });
    });
  });
}

const HEADER = /^run=(r[0-9a-f]{8}); rule=([A-Z0-9,-]+); check=([0-9a-fx]{8}); id=(r[0-9a-f]{8}-[0-9a-fx]{8}-\d+)$/;

describe('traceable requests and the run\'s traffic (a live target on loopback that logs what it receives)', () => {
  it('every request carries X-Conformance-Check naming the run, the rule and the check; the report\'s IDs are in the service\'s log; the HAR holds the same requests', async () => {
    const { config, proxy } = await loggedTarget();
    const har = join(tempDir('correlation-har'), 'run.har');
    const report = await run(config, { har });
    const runId = report.correlation?.runId;
    expect(runId).toMatch(/^r[0-9a-f]{8}$/);
    expect(report.correlation?.header).toBe('X-Conformance-Check');
    expect(proxy.log.length).toBeGreaterThan(10);

    const logged = new Map<string, string>();
    for (const entry of proxy.log) {
      const value = entry.headers['x-conformance-check'];
      expect(typeof value, `${entry.method} ${entry.path}`).toBe('string');
      const m = HEADER.exec(value as string);
      expect(m, String(value)).not.toBeNull();
      expect(m?.[1]).toBe(runId);
      expect(m?.[4]?.startsWith(`${runId}-${m?.[3]}-`)).toBe(true);
      expect(logged.has(m![4]!), `${m![4]} sent twice`).toBe(false);
      logged.set(m![4]!, m![2]!);
    }

    // Every check lists its requests' count and the last IDs: each is in the log, under the check's own rules.
    let listed = 0;
    for (const rule of report.rules.filter((r) => (ONLY as readonly string[]).includes(r.id))) {
      for (const check of rule.checks) {
        if (check.requests === undefined) continue;
        expect(check.requests.requests.length).toBe(Math.min(8, check.requests.count));
        for (const r of check.requests.requests) {
          listed++;
          expect(r.id.startsWith(`${runId}-${check.requests.checkId}-`)).toBe(true);
          expect(logged.get(r.id)?.split(','), r.id).toContain(rule.id);
          expect(Date.parse(r.at)).toBeGreaterThan(0);
        }
      }
    }
    expect(listed).toBeGreaterThan(5);

    // The HAR: the same requests, tagged, parseable as HAR 1.2 by the project's own reader, without the password.
    const text = readFileSync(har, 'utf8');
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(Buffer.from(PASSWORD).toString('base64'));
    const doc = JSON.parse(text) as { log: { version: string; entries: { _correlationId: string; _rules: string[]; _check: string; request: { headers: { name: string; value: string }[] } }[] } };
    expect(doc.log.version).toBe('1.2');
    expect(doc.log.entries.map((e) => e._correlationId).sort()).toEqual([...logged.keys()].sort());
    for (const e of doc.log.entries) {
      expect(e.request.headers.find((h) => h.name === 'X-Conformance-Check')?.value).toContain(`id=${e._correlationId}`);
      if (e._rules.length > 0) expect(e._check.startsWith(e._rules.join(', '))).toBe(true);
    }
    expect(readHar(text)).toHaveLength(doc.log.entries.length);

    // Cross-check: judge's verdicts on the run's own HAR contradict none of the run's.
    const out = tempDir('correlation-judge');
    await judgeCommand([har, '--target', config, '--out', out]);
    const judged = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    const contradictions: string[] = [];
    for (const rule of judged.rules) {
      const ran = report.rules.find((r) => r.id === rule.id);
      if (!ran || !(ONLY as readonly string[]).includes(rule.id)) continue;
      const fails = (s: string) => s === 'fail' || s === 'warn';
      const holds = (s: string) => s === 'pass' || s === 'partial';
      if ((fails(rule.status) && holds(ran.status)) || (holds(rule.status) && fails(ran.status))) {
        contradictions.push(`${rule.id}: run ${ran.status}, judge ${rule.status}`);
      }
    }
    expect(contradictions).toEqual([]);
    expect(judged.rules.filter((r) => (ONLY as readonly string[]).includes(r.id) && r.status === 'pass').length).toBeGreaterThan(0);
  }, 120_000);

  it('a gateway that refuses the correlation header: CRED-03 ends error naming the header and --no-correlation-header, not fail', async () => {
    const { config } = await loggedTarget({}, 'x-conformance-check');
    const report = await run(config, { only: ['CRED-03'] });
    const rule = report.rules.find((r) => r.id === 'CRED-03');
    expect(rule?.status).toBe('error');
    expect(rule?.checks.find((c) => c.status === 'error')?.message).toMatch(/refuses requests that carry the harness's correlation header X-Conformance-Check .*--no-correlation-header/);
    // Without the header, the same target passes.
    const { config: off } = await loggedTarget({ correlationHeader: false }, 'x-conformance-check');
    expect((await run(off, { only: ['CRED-03'] })).rules.find((r) => r.id === 'CRED-03')?.status).not.toBe('error');
  }, 120_000);

  it('sends no correlation header when the target config switches it off, and still lists the IDs in the report', async () => {
    const { config, proxy } = await loggedTarget({ correlationHeader: false });
    const report = await run(config);
    expect(proxy.log.length).toBeGreaterThan(10);
    expect(proxy.log.filter((e) => Object.keys(e.headers).some((h) => h.startsWith('x-conformance')))).toEqual([]);
    expect(report.correlation?.header).toBeNull();
    const ids = report.rules.flatMap((r) => r.checks.flatMap((c) => c.requests?.requests.map((x) => x.id) ?? []));
    expect(ids.length).toBeGreaterThan(5);
  }, 120_000);

  it('sends the header under the name given (--correlation-header), and none with --no-correlation-header', async () => {
    // Through the CLI itself (bin/tds-conformance.js run), so that the flags are what is tested, not RunOptions.
    const named = await loggedTarget();
    const namedOut = join(tempDir('correlation-cli'), 'named');
    expect((await cli(['--target', named.config, '--only', 'REST-03', '--correlation-header', 'X-QA-Trace', '--out', namedOut])).code).toBe(0);
    expect(named.proxy.log.length).toBeGreaterThan(0);
    for (const e of named.proxy.log) {
      expect(e.headers['x-qa-trace']).toMatch(HEADER);
      expect(e.headers['x-conformance-check']).toBeUndefined();
    }
    expect((JSON.parse(readFileSync(join(namedOut, 'report.json'), 'utf8')) as Report).correlation?.header).toBe('X-QA-Trace');

    // The flag wins over a header the target config names.
    const off = await loggedTarget({ correlationHeader: 'X-QA-Trace' });
    const offOut = join(tempDir('correlation-cli'), 'off');
    expect((await cli(['--target', off.config, '--only', 'REST-03', '--no-correlation-header', '--out', offOut])).code).toBe(0);
    expect(off.proxy.log.length).toBeGreaterThan(0);
    expect(off.proxy.log.filter((e) => Object.keys(e.headers).some((h) => h.startsWith('x-qa') || h.startsWith('x-conformance')))).toEqual([]);
    expect((JSON.parse(readFileSync(join(offOut, 'report.json'), 'utf8')) as Report).correlation?.header).toBeNull();
  }, 120_000);
});
