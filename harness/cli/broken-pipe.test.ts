import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-info.ts';

/**
 * The reader of the CLI's output goes away (a pipe into `head`, a CI step that was cancelled, a parent that died): the
 * run goes on without its console, writes its report and exits with its own code. It used to loop at full CPU, each
 * failed write to the closed stderr raising an error whose message it tried to write to stderr.
 */
describe('a closed stdout and stderr', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tds-pipe-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('do not stop the run: it writes its report and exits with its verdict', async () => {
    const out = join(dir, 'out');
    const child = spawn(process.execPath, [join(PACKAGE_ROOT, 'bin/tds-conformance.js'), 'run', '--only', 'REST-03', '--runs', '2', '--out', out], {
      cwd: PACKAGE_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Nobody reads: both pipes are closed before the CLI writes its first line.
    child.stdout.destroy();
    child.stderr.destroy();
    const exit = await new Promise<number | null | 'hung'>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve('hung');
      }, 25_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    expect(exit).toBe(0);
    expect(existsSync(join(out, 'report.json'))).toBe(true);
  }, 30_000);
});
