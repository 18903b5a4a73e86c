/**
 * The package as a user gets it: `npm pack`, installed into a fresh project offline (from the npm cache that
 * `npm ci` filled, through a lockfile made of this repository's locked runtime dependencies), then run with
 * `npx tds-conformance` and imported from plain `.mjs`, `.cjs` and TypeScript consumers. No TypeScript loader is
 * installed there: everything runs as compiled JavaScript.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from './package-info.ts';

// @ts-expect-error: a plain .mjs helper of the build, without type declarations
const { distIsFresh } = (await import('../scripts/dist-fresh.mjs')) as { distIsFresh: (root: string) => boolean };

const NAME = 'tds-auth-conformance';
const ENTRY_POINTS = [NAME, `${NAME}/msw`, `${NAME}/catalog`, `${NAME}/spec`, `${NAME}/credentials`];
const NPM_ENV = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };

interface LockEntry {
  readonly dev?: boolean;
  readonly link?: boolean;
  readonly [key: string]: unknown;
}

let dir = '';
let project = '';
let files: string[] = [];

function npm(args: readonly string[], cwd: string): string {
  return execFileSync('npm', [...args], { cwd, env: NPM_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

beforeAll(() => {
  // `npm test` builds first; a stale or missing dist/ (a single test file run after an edit) is rebuilt here.
  if (!distIsFresh(PACKAGE_ROOT)) execFileSync(process.execPath, [join(PACKAGE_ROOT, 'scripts/build.mjs')], { cwd: PACKAGE_ROOT, stdio: 'ignore' });
  dir = mkdtempSync(join(tmpdir(), 'tds-pack-'));
  const packed = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], PACKAGE_ROOT)) as { filename: string; files: { path: string }[] }[];
  const tarball = packed[0]!.filename;
  files = packed[0]!.files.map((f) => f.path);

  project = join(dir, 'consumer');
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  const lock = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const spec = `file:../${tarball}`;
  const packages: Record<string, unknown> = {
    '': { name: 'consumer', dependencies: { [NAME]: spec } },
    [`node_modules/${NAME}`]: { version: pkg['version'], resolved: spec, dependencies: pkg['dependencies'], bin: pkg['bin'], engines: pkg['engines'] },
  };
  for (const [path, entry] of Object.entries(lock.packages)) if (path.startsWith('node_modules/') && !entry.dev && !entry.link) packages[path] = entry;
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, dependencies: { [NAME]: spec } }, null, 2));
  writeFileSync(join(project, 'package-lock.json'), JSON.stringify({ name: 'consumer', lockfileVersion: 3, requires: true, packages }, null, 2));
  npm(['ci', '--offline', '--ignore-scripts'], project);
}, 180_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('ships compiled JavaScript, declarations and run-time files, and no TypeScript sources or unit tests', () => {
    expect(files).toEqual(expect.arrayContaining([
      'bin/tds-conformance.js', 'dist/harness/cli.js', 'dist/harness/index.js', 'dist/harness/index.d.ts', 'dist/harness/msw.d.ts',
      'dist/suites/service/token-endpoint.test.js', 'dist/suites/client/rest.test.js', 'dist/fixtures/mutants/index.js',
      'dist/examples/clients/typescript/driver.js', 'dist/fixtures/xsd/request.xsd', 'dist/fixtures/envelopes/valid/request-ping.xml',
      'dist/harness/soap/java/EnvelopeValidatorServer.java', 'examples/clients/python/driver.py', 'docs/rules.md', 'README.md',
    ]));
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(files.filter((f) => /\.test\.js$/.test(f) && !f.startsWith('dist/suites/'))).toEqual([]);
    // Test support (it imports Vitest to assert) lives in test/support, which is not built.
    expect(files.filter((f) => f.startsWith('dist/test/') || /(^|\/)live-run\.(js|d\.ts)$/.test(f))).toEqual([]);
  });

  it('installs without a TypeScript loader: tsx and typescript are not among its dependencies', () => {
    expect(existsSync(join(project, 'node_modules', NAME, 'dist', 'harness', 'cli.js'))).toBe(true);
    expect(existsSync(join(project, 'node_modules', 'tsx'))).toBe(false);
    expect(existsSync(join(project, 'node_modules', 'typescript'))).toBe(false);
  });

  it('REST-03, SOAP-02: "npx tds-conformance run" runs the compiled suites against the simulator and writes the reports', () => {
    const help = spawnSync('npx', ['--no', '--', 'tds-conformance', '--help'], { cwd: project, env: NPM_ENV, encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: tds-conformance run [options]');

    const out = join(project, 'out');
    const run = spawnSync('npx', ['--no', 'tds-conformance', 'run', '--only', 'REST-03,SOAP-02', '--out', out, '--quiet'], { cwd: project, env: NPM_ENV, encoding: 'utf8' });
    expect(run.stderr).not.toMatch(/ERR_UNKNOWN_FILE_EXTENSION|Error:/);
    expect(run.status).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { rules: { id: string; status: string }[] };
    expect(report.rules.filter((r) => r.id === 'REST-03' || r.id === 'SOAP-02').map((r) => `${r.id} ${r.status}`)).toEqual(['REST-03 pass', 'SOAP-02 pass']);
    for (const f of ['junit.xml', 'report.md', 'report.html', 'report.earl.jsonld']) expect(existsSync(join(out, f))).toBe(true);
  }, 120_000);

  it('every export imports from a plain .mjs consumer', () => {
    writeFileSync(join(project, 'consumer.mjs'), [
      `for (const name of ${JSON.stringify(ENTRY_POINTS)}) {`,
      '  const m = await import(name);',
      '  console.log(name, Object.keys(m).sort().join(","));',
      '}',
      `const { createSimulator } = await import('${NAME}/msw');`,
      'console.log("accounts", Object.keys(createSimulator().accounts).join(","));',
    ].join('\n'));
    const lines = execFileSync(process.execPath, ['consumer.mjs'], { cwd: project, encoding: 'utf8' }).trim().split('\n');
    expect(lines.map((l) => l.split(' ')[0])).toEqual([...ENTRY_POINTS, 'accounts']);
    expect(lines[0]).toContain('runConformance');
    expect(lines[1]).toContain('createSimulator');
    expect(lines[2]).toContain('rules');
    expect(lines[3]).toContain('rules');
    expect(lines[3]!.split(' ')[1]).toBe(lines[2]!.split(' ')[1]);
    expect(lines[4]).toContain('encodeRestCredentials');
    expect(lines[5]).toBe('accounts cert,prod');
  });

  it('every export loads from a .cjs consumer (require of ES modules, Node 20.19 and later)', () => {
    writeFileSync(join(project, 'consumer.cjs'), `for (const name of ${JSON.stringify(ENTRY_POINTS)}) console.log(name, typeof require(name));\n`);
    const run = spawnSync(process.execPath, ['consumer.cjs'], { cwd: project, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual(ENTRY_POINTS.map((n) => `${n} object`));
  });

  it('every export type-checks from a TypeScript consumer (NodeNext)', () => {
    writeFileSync(join(project, 'consumer.mts'), [
      `import { runConformance, type Report, type RuleId } from '${NAME}';`,
      `import { createSimulator, type Simulator } from '${NAME}/msw';`,
      `import { rules } from '${NAME}/catalog';`,
      `import { rules as sameRules } from '${NAME}/spec';`,
      `import { encodeRestCredentials } from '${NAME}/credentials';`,
      'const sim: Simulator = createSimulator();',
      'const id: RuleId | undefined = rules[0]?.id;',
      'const run: (o: Parameters<typeof runConformance>[0]) => Promise<{ report: Report }> = runConformance;',
      'const encode: typeof encodeRestCredentials = encodeRestCredentials;',
      'const same: typeof rules = sameRules;',
      'export { sim, id, run, encode, same };',
    ].join('\n'));
    const typesDir = join(PACKAGE_ROOT, 'node_modules', '@types');
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2023', lib: ['ES2023', 'DOM'], strict: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [typesDir] },
      files: ['consumer.mts'],
    }));
    const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
    const check = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8' });
    expect(check.stdout).toBe('');
    expect(check.status).toBe(0);
  });
});
