/**
 * Where a session keeps the test files and setup files Vite transformed for its workers, between runs and processes
 * (Vitest's `experimental.fsModuleCache`): a one-rule run 0.05 s sooner once the cache holds them (docs/performance.md).
 * An entry is found by a hash of the file's content, Vitest's version and configuration: a changed file is transformed
 * again, never served stale. The cache is the user's own (`$XDG_CACHE_HOME/tds-auth-conformance/vitest-modules`, else
 * `~/.cache/…`, created readable and writable by its owner only, as what it holds is code the workers run);
 * `TDS_MODULE_CACHE` names another directory, or `off`. A directory that cannot be made or written is no cache: the run
 * goes on without one.
 *
 * Each code root (the checkout's sources, its dist/, an installed package) has a directory of its own under it: Vitest
 * empties a cache whose recorded lockfile is not its root's, so two roots sharing one would empty it for each other,
 * under the feet of the runs reading it.
 */
import { createHash } from 'node:crypto';
import { accessSync, constants, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The cache directory of the code under `root`, or `undefined` for none. */
export function moduleCacheDir(root: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const chosen = env['TDS_MODULE_CACHE'];
  if (chosen === 'off' || chosen === '0' || chosen === '') return undefined;
  let dir = chosen;
  if (dir === undefined) {
    const base = env['XDG_CACHE_HOME'] || (homedir() ? join(homedir(), '.cache') : undefined);
    if (base === undefined) return undefined;
    dir = join(base, 'tds-auth-conformance', 'vitest-modules');
  }
  dir = join(dir, createHash('sha256').update(root).digest('hex').slice(0, 16));
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    accessSync(dir, constants.W_OK);
    return dir;
  } catch {
    return undefined;
  }
}
