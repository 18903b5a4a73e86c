import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { moduleCacheDir } from './module-cache.ts';

const dir = mkdtempSync(join(tmpdir(), 'tds-module-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the module cache of a session', () => {
  it('is the user\'s own cache directory by default, made readable and writable by its owner only', () => {
    const got = moduleCacheDir('/some/root', { XDG_CACHE_HOME: join(dir, 'xdg') });
    expect(got).toMatch(new RegExp(`^${join(dir, 'xdg', 'tds-auth-conformance', 'vitest-modules')}/[0-9a-f]{16}$`));
    for (const d of [got!, join(got!, '..')]) expect(statSync(d).mode & 0o777).toBe(0o700);
  });

  it('is a directory of its own for each code root (Vitest empties a cache another root recorded)', () => {
    const env = { TDS_MODULE_CACHE: join(dir, 'one-cache') };
    const sources = moduleCacheDir('/checkout', env);
    const compiled = moduleCacheDir('/checkout/dist', env);
    expect(sources).not.toBe(compiled);
    expect(moduleCacheDir('/checkout', env)).toBe(sources);
  });

  it('is the directory TDS_MODULE_CACHE names, or none with TDS_MODULE_CACHE=off', () => {
    expect(moduleCacheDir('/r', { TDS_MODULE_CACHE: join(dir, 'named') })).toMatch(new RegExp(`^${join(dir, 'named')}/[0-9a-f]{16}$`));
    expect(moduleCacheDir('/r', { TDS_MODULE_CACHE: 'off', XDG_CACHE_HOME: join(dir, 'xdg') })).toBeUndefined();
  });

  it('is none when its directory cannot be made: the run goes on without one', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a directory');
    expect(moduleCacheDir('/r', { TDS_MODULE_CACHE: join(file, 'cache') })).toBeUndefined();
  });
});
