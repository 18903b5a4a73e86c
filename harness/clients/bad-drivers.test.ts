import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-info.ts';
import type { Report } from '../report/index.ts';
import { ConformanceSession } from '../runner.ts';
import { processEnded } from '../../test/support/clients.ts';
import { sharedSession } from '../../test/support/shared-session.ts';

const dir = mkdtempSync(join(tmpdir(), 'tds-bad-drivers-'));
let session: ConformanceSession | undefined;

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The op time limit: every bad driver must start (and crash, print or answer wrongly) within it, and on a loaded
 * machine a Node process can take well over half a second to start.
 */
const TIMEOUT_MS = 3_000;

async function runWith(name: string): Promise<{ report: Report; written: Report; pid: number }> {
  session ??= await sharedSession('sim');
  const out = join(dir, name);
  const pidFile = join(dir, `${name}.pid`);
  process.env.BAD_DRIVER_PIDFILE = pidFile;
  try {
    const { report } = await session.run({
      target: 'sim',
      suite: 'client',
      only: ['API-04', 'REST-01'],
      client: { kind: 'command', command: `node ${join(PACKAGE_ROOT, 'fixtures/bad-drivers', `${name}.mjs`)}` },
      clientTimeoutMs: TIMEOUT_MS,
      outDir: out,
      quiet: true,
      log: () => {},
    });
    const written = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    return { report, written, pid: Number(readFileSync(pidFile, 'utf8')) };
  } finally {
    delete process.env.BAD_DRIVER_PIDFILE;
  }
}

const message = (report: Report, id: string) => {
  const rule = report.rules.find((r) => r.id === id)!;
  const check = rule.checks[0]!;
  return { status: rule.status, check: check.status, message: 'message' in check ? check.message : '' };
};

describe('a misbehaving client driver', () => {
  it.each([
    ['crash', /exited \(code 3\) during "configure"; its stderr ends: driver: cannot handle configure/],
    ['hang', /the driver did not answer "configure" within 3000 ms/],
    ['garbage', /did not answer "configure" within 3000 ms; it printed 1 line\(s\) on stdout that are not answers, the last: "handling configure\.\.\. done"/],
    ['wrong-id', /answered request id 1001, which was never sent/],
    ['unknown-op', /the client refused "configure" \(error kind "unsupported"\): unknown operation configure/],
    // A check that caught the op's error (REST-01 ignores a failed call) is still an error of the driver, not skipped.
    ['exit-after-configure', /exited \(code 0\) (during "rest\.call"|before it was asked to shut down)/],
  ])('%s: the rules it was checked on are errors naming the op and what came back, the report is written, the process ended', async (name, expected) => {
    const { report, written, pid } = await runWith(name);
    for (const id of ['API-04', 'REST-01']) {
      const m = message(report, id);
      expect(m.status).toBe('error');
      expect(m.check).toBe('error');
      expect(m.message).toMatch(expected);
    }
    expect(written.rules.find((r) => r.id === 'API-04')?.status).toBe('error');
    expect(report.exitCode).toBe(1);
    expect(await processEnded(pid)).toBe(true);
  }, 60_000);
});

describe('a client module that cannot be started', () => {
  it.each([
    ['module-throws-on-import', /the client module .*module-throws-on-import\.mjs cannot be loaded: this client module is broken: it throws on import/],
    ['module-without-client', /the client module .*module-without-client\.mjs exports no createClient\(\)/],
  ])('%s: the rules it was checked on are errors saying so, not failures', async (name, expected) => {
    session ??= await sharedSession('sim');
    const { report } = await session.run({
      target: 'sim', suite: 'client', only: ['API-04', 'REST-01'],
      client: { kind: 'module', path: join(PACKAGE_ROOT, 'fixtures/bad-drivers', `${name}.mjs`) },
      outDir: '', write: false, quiet: true, log: () => {},
    });
    for (const id of ['API-04', 'REST-01']) {
      const m = message(report, id);
      expect(m.status, id).toBe('error');
      expect(m.check, id).toBe('error');
      expect(m.message).toMatch(expected);
    }
    expect(report.exitCode).toBe(1);
  }, 60_000);
});
