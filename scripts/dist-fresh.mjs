// Whether dist/ was built after the last change to the sources it is built from (a checkout only: the installed
// package has no sources). Used by bin/tds-conformance.js, the package test, the many-run tests and the observe bench.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The directories the build reads; unit tests (`*.test.ts` outside suites/) and Markdown are not built. */
const SOURCES = ['harness', 'suites', 'fixtures', 'examples/clients/typescript'];

function newest(dir, withTests) {
  let max = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.name.endsWith('.md') || (!withTests && entry.name.endsWith('.test.ts'))) continue;
    max = Math.max(max, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return max;
}

/** True when `<root>/dist` exists and is newer than every source file it is built from. */
export function distIsFresh(root) {
  const built = statSync(join(root, 'dist', '.built'), { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined || !existsSync(join(root, 'dist', 'harness', 'cli.js'))) return false;
  return SOURCES.every((d) => !existsSync(join(root, d)) || newest(join(root, d), d === 'suites') <= built);
}

/**
 * Where to import the checkout's modules from: the compiled copies in dist/ when dist/ is fresh (and `sources` is not
 * asked for), else the TypeScript sources (for a process with a TypeScript loader). `url('harness/runner.ts')` is the
 * module's file URL, `dist/harness/runner.js` when compiled.
 */
export function checkoutModules(root, { sources = false } = {}) {
  const compiled = !sources && distIsFresh(root);
  return {
    compiled,
    url: (path) => pathToFileURL(compiled ? join(root, 'dist', path.replace(/\.ts$/, '.js')) : join(root, path)).href,
  };
}
