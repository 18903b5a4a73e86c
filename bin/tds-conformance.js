#!/usr/bin/env node
// The CLI runs compiled JavaScript (dist/, built by `npm run build`, on `npm ci` and before `npm pack`): no
// TypeScript loader at run time. In a checkout whose sources are newer than dist/ (or with no dist/ yet), it runs the
// TypeScript sources through tsx (a devDependency) instead, so a change is never tested through a stale build.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const compiled = join(root, 'dist', 'harness', 'cli.js');
const source = join(root, 'harness', 'cli.ts');

/** Newest modification time (ms) of the files under `dir` that the build reads (unit tests and docs are not built). */
function newest(dir, withTests) {
  let max = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.name.endsWith('.md') || (!withTests && entry.name.endsWith('.test.ts'))) continue;
    max = Math.max(max, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return max;
}

function isFresh() {
  if (!existsSync(compiled)) return false;
  if (!existsSync(source)) return true; // an installed package: only the build is there
  const built = statSync(join(root, 'dist', '.built'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  const dirs = ['harness', 'suites', 'fixtures', 'examples/clients/typescript'];
  return dirs.every((d) => !existsSync(join(root, d)) || newest(join(root, d), d === 'suites') <= built);
}

let entry = compiled;
if (!isFresh()) {
  if (!existsSync(source)) {
    process.stderr.write('tds-conformance: the package is not built (dist/harness/cli.js is missing): run "npm run build".\n');
    process.exit(2);
  }
  try {
    const { register } = await import('tsx/esm/api');
    register();
  } catch {
    process.stderr.write('tds-conformance: dist/ is missing or older than the sources, and tsx is not installed: run "npm run build".\n');
    process.exit(2);
  }
  entry = source;
}
const { main } = await import(pathToFileURL(entry).href);
process.exitCode = await main(process.argv.slice(2));
