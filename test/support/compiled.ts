/**
 * The harness the many-run tests (the precision self-test, the latitude property) drive: the compiled one in dist/
 * when it was built after the last change to the sources (as bin/tds-conformance.js decides; `npm test` builds it
 * first), else the sources. Compiled, the nested runs' workers import the harness natively instead of transforming
 * every module in every worker — the same code, run as users run it.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

type Runner = typeof import('../../harness/runner.ts');
type SelfTest = typeof import('../../harness/selftest.ts');
type PackageInfo = typeof import('../../harness/package-info.ts');

const ROOT = join(import.meta.dirname, '..', '..');
const modules = (await import(pathToFileURL(join(ROOT, 'scripts', 'dist-fresh.mjs')).href) as {
  checkoutModules: (root: string, options?: { sources?: boolean }) => { compiled: boolean; url: (path: string) => string };
}).checkoutModules(ROOT, { sources: process.env['TDS_TEST_SOURCES'] === '1' });

/** Whether the tests drive the compiled harness. */
export const COMPILED = modules.compiled;

const load = async <T>(path: string): Promise<T> => (await import(modules.url(path))) as T;

export const runner = await load<Runner>('harness/runner.ts');
export const selftest = await load<SelfTest>('harness/selftest.ts');
export const packageInfo = await load<PackageInfo>('harness/package-info.ts');
