import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { moduleCacheDir } from './module-cache.ts';

const dir = mkdtempSync(join(tmpdir(), 'tds-module-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the module cache of a session', () => {
  it('is the user\'s own cache directory by default, made readable and writable by its owner only', () => {
    const got = moduleCacheDir({ XDG_CACHE_HOME: join(dir, 'xdg') });
    expect(got).toBe(join(dir, 'xdg', 'tds-auth-conformance', 'vitest-modules'));
    expect(statSync(got!).mode & 0o777).toBe(0o700);
  });

  it('is the directory TDS_MODULE_CACHE names, or none with TDS_MODULE_CACHE=off', () => {
    expect(moduleCacheDir({ TDS_MODULE_CACHE: join(dir, 'named') })).toBe(join(dir, 'named'));
    expect(moduleCacheDir({ TDS_MODULE_CACHE: 'off', XDG_CACHE_HOME: join(dir, 'xdg') })).toBeUndefined();
  });

  it('is none when its directory cannot be made: the run goes on without one', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a directory');
    expect(moduleCacheDir({ TDS_MODULE_CACHE: join(file, 'cache') })).toBeUndefined();
  });
});
