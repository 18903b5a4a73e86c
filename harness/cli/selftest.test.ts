import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-info.ts';

const exec = promisify(execFile);

/** `tds-conformance selftest`, as a user runs it (the whole self-test runs in `npm test` as test/precision/precision.*.test.ts). */
async function selftest(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return selftestWith({}, ...args);
}

async function selftestWith(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [join(PACKAGE_ROOT, 'bin/tds-conformance.js'), 'selftest', ...args], { cwd: PACKAGE_ROOT, env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The service suite's files. */
const serviceFiles = () => readdirSync(join(PACKAGE_ROOT, 'suites', 'service')).filter((f) => /\.test\.[jt]s$/.test(f));
/** How many suite files a run ended, by the CLI's timing marks (TDS_TIMING=1). */
const moduleEnds = (stderr: string) => stderr.split('\n').filter((l) => / module-end /.test(l)).length;

describe('tds-conformance selftest', () => {
  it('prints a line per subject, the precision and the count, and exits 0 when every subject is caught', async () => {
    const { code, stdout, stderr } = await selftestWith({ TDS_TIMING: '1' }, '--only', 'rest03-expires-in-string', '--runs', '1');
    expect(stdout).toMatch(/^✓ defect rest03-expires-in-string +REST-03 fail$/m);
    expect(stdout).toContain('precision: 1 of 1 defects and mutants caught by exactly their rules; 0 collateral verdicts');
    expect(stdout).toContain('1 passed, 0 failed');
    expect(code).toBe(0);
    // A lone subject shares its defect-free run with no other: it runs every file once, and no defect-free run beside
    // (the timing marks: one per file that ended).
    expect(moduleEnds(stderr)).toBe(serviceFiles().length);
  }, 60_000);

  it('--pairs prints the pairs exempted because the document leaves their verdict undecidable, with the reason, before the pairs', async () => {
    const { code, stdout } = await selftest('--pairs', '--only', 'stok01-no-token + soap-token-400-on-rest', '--runs', '1');
    const lines = stdout.trim().split('\n');
    expect(lines.slice(0, 2)).toEqual([
      'exempted (the interface document leaves the verdict undecidable):',
      expect.stringMatching(/^- pair {3}stok01-no-token \+ soap-token-400-on-rest +XPROTO-02 not judged: XPROTO-02 judges a sessionless token from TokenCreateRQ on REST, and TokenCreateRQ returns none \(STOK-01 fails\); the document names no other SOAP source/),
    ]);
    expect(stdout).toMatch(/^✓ pair {3}stok01-no-token \+ soap-token-400-on-rest +STOK-01 fail$/m);
    expect(stdout).toContain('1 passed, 0 failed');
    expect(code).toBe(0);
  }, 120_000);

  it('--no-share runs every file for every subject, with the same verdicts as sharing a defect-free run', async () => {
    const { code, stdout, stderr } = await selftestWith({ TDS_TIMING: '1' }, '--only', 'rest03-expires-in-string', '--only', 'err03-status-400', '--runs', '1', '--no-share');
    expect(stdout).toMatch(/^✓ defect rest03-expires-in-string +REST-03 fail$/m);
    expect(stdout).toMatch(/^✓ defect err03-status-400 +ERR-03 warn$/m);
    // Two subjects, each a run of every service suite file, and no defect-free run beside them.
    expect(moduleEnds(stderr)).toBe(2 * serviceFiles().length);
    expect(stdout).toContain('2 passed, 0 failed');
    expect(code).toBe(0);
  }, 60_000);

  it('refuses an --only that matches no subject: exit code 2 and one line saying what to give', async () => {
    const { code, stdout, stderr } = await selftest('--only', 'no-such-subject');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('--only no-such-subject matches no subject');
  }, 60_000);
});
