#!/usr/bin/env node
// Builds the package: JavaScript of the harness, suites, mutant and reference clients into dist/ (tsc, with
// `rewriteRelativeImportExtensions`), type declarations of the public entry points, and the files they read at run
// time (XSD schemas, golden envelopes, the validator's Java source) beside them. Plain JavaScript: runs without tsx.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');

rmSync(dist, { recursive: true, force: true });
for (const project of ['tsconfig.build.json', 'tsconfig.types.json']) {
  execFileSync(process.execPath, [tsc, '-p', join(root, project)], { cwd: root, stdio: 'inherit' });
}
/** Run-time files, at the same place relative to the modules that read them. */
const ASSETS = ['fixtures/xsd', 'fixtures/envelopes/valid', 'fixtures/envelopes/invalid', 'harness/soap/java'];
for (const asset of ASSETS) {
  mkdirSync(dirname(join(dist, asset)), { recursive: true });
  cpSync(join(root, asset), join(dist, asset), { recursive: true });
}
// The stamp bin/tds-conformance.js compares with the sources' times in a checkout.
writeFileSync(join(dist, '.built'), `${new Date().toISOString()}\n`);
