#!/usr/bin/env node
// The CLI runs compiled JavaScript (dist/, built by `npm run build`, on `npm ci` and before `npm pack`): no
// TypeScript loader at run time. In a checkout whose sources are newer than dist/ (or with no dist/ yet), it runs the
// TypeScript sources through tsx (a devDependency) instead, so that a change is never tried through a stale build.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const compiled = join(root, 'dist', 'harness', 'cli.js');
const source = join(root, 'harness', 'cli.ts');

// A run's test worker is forked first of all (harness/run/worker-pool.ts), so that it loads while this process checks
// dist/ and loads the CLI; the run takes it. If the sources are run instead, it is ended.
const [command, ...args] = process.argv.slice(2);
const compiledPool = join(root, 'dist', 'harness', 'run', 'worker-pool.js');
const pool = (command === 'run' || command === 'selftest') && !args.includes('--help') && !args.includes('-h') && existsSync(compiledPool)
  ? await import(pathToFileURL(compiledPool).href).catch(() => undefined) // a stale build that no longer loads: no head start
  : undefined;
pool?.startWorkerEarly?.();

let entry = compiled;
if (existsSync(source)) {
  const { distIsFresh } = await import(pathToFileURL(join(root, 'scripts', 'dist-fresh.mjs')).href);
  if (!distIsFresh(root)) {
    pool?.endWorkerEarly?.();
    try {
      const { register } = await import('tsx/esm/api');
      register();
      entry = source;
    } catch {
      process.stderr.write('tds-conformance: dist/ is missing or older than the sources, and tsx is not installed: run "npm run build".\n');
      process.exit(2);
    }
  }
} else if (!existsSync(compiled)) {
  process.stderr.write('tds-conformance: the package is not built (dist/harness/cli.js is missing): reinstall it.\n');
  process.exit(2);
}
const { main } = await import(pathToFileURL(entry).href);
process.exitCode = await main(process.argv.slice(2));
