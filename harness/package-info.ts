import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(import.meta.url);

/**
 * Where the harness's modules live: the repository root when run from the TypeScript sources (tests, `npx vitest`),
 * `dist/` when run compiled (the CLI, the installed package). The suites, mutant clients and the reference client
 * are found here, with {@link CODE_EXT}.
 */
export const CODE_ROOT = join(dirname(HERE), '..');

/** The extension of the harness's modules as they run: `.ts` from the sources, `.js` compiled. */
export const CODE_EXT: '.ts' | '.js' = extname(HERE) === '.ts' ? '.ts' : '.js';

/** The package's own directory (where package.json, docs/ and the compiled `dist/` live), wherever it is installed. */
export const PACKAGE_ROOT = existsSync(join(CODE_ROOT, 'package.json')) ? CODE_ROOT : join(CODE_ROOT, '..');

/** A module of the package by its source path (`fixtures/mutants/x.ts`), as it runs here (compiled or not). */
export function codeFile(sourcePath: string): string {
  return join(CODE_ROOT, CODE_EXT === '.ts' ? sourcePath : sourcePath.replace(/\.ts$/, '.js'));
}

export const TOOL_VERSION: string = (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * A suite file as run options name it (`fileProfiles`): its path from the code root, with `/` and a `.ts` extension
 * (`suites/service/sessions.test.ts`), whether it runs from the sources or compiled. `path` is absolute, or already
 * relative to the code root (a report's `file`).
 */
export function suiteFileKey(path: string): string {
  return (isAbsolute(path) ? relative(CODE_ROOT, path) : path).split(sep).join('/').replace(/\.js$/, '.ts');
}
