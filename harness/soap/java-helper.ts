import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Name of the Java class of the long-lived validator (`harness/soap/java/`). */
export const HELPER_CLASS = 'EnvelopeValidatorServer';

import type { JavaHelperErrorCode } from './errors.ts';

const SOURCE = fileURLToPath(new URL(`./java/${HELPER_CLASS}.java`, import.meta.url));
const PROJECT_CACHE = fileURLToPath(new URL('../../node_modules/.cache/tds-auth-conformance/', import.meta.url));

/** Thrown when Java is missing or the helper cannot be compiled or started. */
export class JavaHelperError extends Error {
  constructor(
    readonly code: JavaHelperErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'JavaHelperError';
  }
}

/** `java` / `javac` from `$JAVA_HOME/bin` when set, else from the PATH (as xsd-schema-validator does). */
export function javaTool(tool: 'java' | 'javac'): string {
  const home = process.env['JAVA_HOME'];
  return home ? join(home, 'bin', tool) : tool;
}

function run(command: string, args: readonly string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

const compiled = new Map<string, Promise<string>>();

/**
 * The directory holding the compiled helper class, compiling it at first use. Compiled into
 * `node_modules/.cache/tds-auth-conformance/` (or the OS temp directory when that is not writable), under a name
 * derived from the source's hash, so a changed source is recompiled; a compilation goes to a temporary directory
 * renamed into place, so processes compiling at the same time do not see half-written classes.
 */
export function compiledHelperDir(cacheDir?: string): Promise<string> {
  const key = cacheDir ?? '';
  let pending = compiled.get(key);
  if (!pending) {
    pending = compile(cacheDir);
    compiled.set(key, pending);
    pending.catch(() => compiled.delete(key));
  }
  return pending;
}

async function compile(cacheDir: string | undefined): Promise<string> {
  const source = readFileSync(SOURCE);
  const hash = createHash('sha256').update(source).update(javaTool('javac')).digest('hex').slice(0, 16);
  const roots = cacheDir ? [cacheDir] : [PROJECT_CACHE, join(tmpdir(), `tds-auth-conformance-${safeUser()}`)];
  let lastError: unknown;
  for (const root of roots) {
    const target = join(root, `validator-${hash}`);
    if (existsSync(join(target, `${HELPER_CLASS}.class`))) return target;
    const staging = `${target}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      mkdirSync(staging, { recursive: true });
    } catch (error) {
      lastError = error;
      continue;
    }
    try {
      let result: { code: number | null; output: string };
      try {
        result = await run(javaTool('javac'), ['-d', staging, SOURCE]);
      } catch (error) {
        throw new JavaHelperError('java-not-found', `cannot run javac (${String(error)}); install a JDK (17 or later) or set JAVA_HOME`);
      }
      if (result.code !== 0) throw new JavaHelperError('compile-failed', `javac failed with exit code ${result.code}: ${result.output.trim()}`);
      try {
        renameSync(staging, target);
      } catch (error) {
        // Another process won the race: use its copy.
        if (!existsSync(join(target, `${HELPER_CLASS}.class`))) throw error;
      }
      return target;
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  throw lastError instanceof Error ? lastError : new JavaHelperError('compile-failed', 'no writable cache directory for the validator helper');
}

function safeUser(): string {
  try {
    return userInfo().username.replace(/[^A-Za-z0-9_-]/g, '_');
  } catch {
    return 'user';
  }
}
