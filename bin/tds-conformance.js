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

const [command, ...args] = process.argv.slice(2);

// A run on the simulator in a terminal goes to the run server of this build when one is up (harness/cli/run-server.ts:
// a warm session kept between runs), and starts one for the next runs when none is (TDS_RUN_SERVER=0: never).
let startServerAfter;
const compiledClient = join(root, 'dist', 'harness', 'cli', 'run-server-client.js');
if (command === 'run' && existsSync(compiledClient)) {
  const client = await import(pathToFileURL(compiledClient).href).catch(() => undefined);
  if (client?.servable(process.argv.slice(2))) {
    const fresh = !existsSync(source) || (await import(pathToFileURL(join(root, 'scripts', 'dist-fresh.mjs')).href)).distIsFresh(root);
    const served = fresh ? await client.tryServedRun(process.argv.slice(2)) : undefined;
    if (served?.served) process.exit(served.code);
    if (served?.reason === 'no-server') startServerAfter = client.startServer;
  }
}

// A run's test worker is forked first of all (harness/run/worker-pool.ts), so that it loads while this process checks
// dist/ and loads the CLI; the run takes it. If the sources are run instead, it is ended.
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
// A run that got as far as its report (not a usage error, an unreachable target, an interruption).
if (startServerAfter && entry === compiled && (process.exitCode === 0 || process.exitCode === 1)) startServerAfter();
