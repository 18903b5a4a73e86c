import { execFile } from 'node:child_process';
import { PACKAGE_ROOT } from '../../harness/package-info.ts';

/**
 * Whether `specifier` is loaded (in CommonJS's module cache) in a fresh Node process, run from the sources with tsx at
 * the package root, once `code` ran there (ES module text; its imports are relative to the package root). For the
 * tests that hold a dependency lazy: the test worker may have loaded it for another file.
 */
export function loadedInFreshProcess(code: string, specifier: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const script = `${code}
    import { createRequire as __createRequire } from 'node:module';
    const __require = __createRequire(import.meta.url);
    process.stdout.write(String(__require.resolve(${JSON.stringify(specifier)}) in __require.cache));`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: PACKAGE_ROOT, env, timeout: 30_000 }, (err, stdout) => {
      if (err) reject(err);
      else resolve(stdout.trim() === 'true');
    });
  });
}
