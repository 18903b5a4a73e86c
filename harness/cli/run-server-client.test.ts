import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packagePrefix, servable, serverDir, serverKey } from './run-server-client.ts';

const TERMINAL = {} as NodeJS.ProcessEnv;

describe('which runs the run server may take', () => {
  it('takes a run on the simulator in a terminal outside CI, or anywhere with TDS_RUN_SERVER=1', () => {
    expect(servable(['run'], TERMINAL, true)).toBe(true);
    expect(servable(['run', '--only', 'REST-03', '--runs', '5', '--out', 'x'], TERMINAL, true)).toBe(true);
    expect(servable(['run', '--target', 'sim'], TERMINAL, true)).toBe(true);
    expect(servable(['run', '--target=sim', '--defect', 'rest03-token-type-capitalized'], TERMINAL, true)).toBe(true);
    expect(servable(['run'], { TDS_RUN_SERVER: '1' }, false)).toBe(true);
    expect(servable(['run'], { TDS_RUN_SERVER: '1', CI: 'true' }, false)).toBe(true);
  });

  it('leaves a run to its own process: piped, in CI, TDS_RUN_SERVER=0, with timing marks', () => {
    expect(servable(['run'], TERMINAL, false)).toBe(false);
    expect(servable(['run'], { CI: 'true' }, true)).toBe(false);
    expect(servable(['run'], { TDS_RUN_SERVER: '0' }, true)).toBe(false);
    expect(servable(['run'], { TDS_RUN_SERVER: '1', TDS_TIMING: '1' }, true)).toBe(false);
  });

  it('leaves every other command, another target, a client of the user\'s and --help to the CLI', () => {
    for (const argv of [
      ['selftest'], ['serve'], ['observe', '--', 'true'], [],
      ['run', '--target', 'cert'], ['run', '--target', 'target.json'], ['run', '--target=cert'], ['run', '--target'],
      ['run', '--suite', 'client', '--client', 'python3 driver.py'], ['run', '--suite', 'all', '--client-module', './c.js'],
      ['run', '--client-module=./c.js'], ['run', '--help'], ['run', '-h'],
    ]) expect({ argv, servable: servable(argv, TERMINAL, true) }).toEqual({ argv, servable: false });
  });
});

describe('the run server\'s socket', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tds-server-key-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is named after the build: a rebuilt package gets another server', () => {
    expect(serverKey(dir)).toBeUndefined();
    mkdirSync(join(dir, 'dist', 'harness'), { recursive: true });
    const cli = join(dir, 'dist', 'harness', 'cli.js');
    writeFileSync(cli, 'export {};\n');
    utimesSync(cli, 1_000_000, 1_000_000);
    const first = serverKey(dir);
    expect(first).toMatch(/^[0-9a-f]{12}-[0-9a-f]{12}$/);
    expect(serverKey(dir)).toBe(first);
    utimesSync(cli, 2_000_000, 2_000_000);
    expect(serverKey(dir)).not.toBe(first);
    // The same package: its new server ends the old one.
    expect(serverKey(dir)?.startsWith(packagePrefix(dir))).toBe(true);
    expect(first?.startsWith(packagePrefix(dir))).toBe(true);
    expect(packagePrefix(join(dir, 'other'))).not.toBe(packagePrefix(dir));
    // The environment a server keeps for all its runs: Node's options and the harness's variables, not the server's own.
    const now = serverKey(dir, {});
    expect(serverKey(dir, { NODE_OPTIONS: '--import tsx' })).not.toBe(now);
    expect(serverKey(dir, { TDS_MODULE_CACHE: 'off' })).not.toBe(now);
    expect(serverKey(dir, { TDS_RUN_SERVER: '1', TDS_RUN_SERVER_IDLE_SECONDS: '5', TDS_RUN_SERVER_DIR: '/x', PATH: '/bin' })).toBe(now);
  });

  it('lives in a directory of this user\'s alone, or nowhere', () => {
    const own = join(dir, 'own');
    expect(serverDir({ TDS_RUN_SERVER_DIR: own })).toBe(own);
    const everyone = join(dir, 'everyone');
    mkdirSync(everyone);
    chmodSync(everyone, 0o777);
    expect(serverDir({ TDS_RUN_SERVER_DIR: everyone })).toBeUndefined();
  });
});
