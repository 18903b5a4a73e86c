/**
 * Checks of a run's input that need the file system or the shell, made before the run starts (and before Vitest is
 * loaded), so that a bad value is one line and exit code 2 at once rather than a run of errors.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { ClientSpec } from '../clients/load.ts';
import { ShellSyntaxError, splitShellWords } from '../report/replay.ts';
import { UsageError } from './usage-error.ts';

const reason = (err: unknown): string => {
  const e = err as NodeJS.ErrnoException;
  return e.code ?? (err instanceof Error ? err.message : String(err));
};

/**
 * The report directory can be written: created when absent (with its parents), and a file can be made in it.
 * @param given the value of `--out` as typed, for the message.
 * @throws {UsageError}
 */
export function checkOutDir(dir: string, given: string = dir): void {
  const what = `--out "${given}"`;
  if (existsSync(dir) && !statSync(dir).isDirectory()) {
    throw new UsageError(`${what} is a file, not a directory: give a directory for the reports (it is created if absent).`);
  }
  try {
    makeDirectory(dir);
  } catch (err) {
    const code = reason(err);
    if (code === 'ENOTDIR' || code === 'EEXIST') {
      throw new UsageError(`${what} cannot be created: a part of its path is a file. Give a directory for the reports (it is created if absent).`);
    }
    throw new UsageError(`${what} cannot be created (${code}): give a directory you can write to (it is created if absent).`);
  }
  const unwritable = writeProbe(dir);
  if (unwritable) throw new UsageError(`${what} cannot be written (${unwritable}): give a directory you can write to (it is created if absent).`);
}

/** Writes and removes a file in `dir`: the error code when that fails, else undefined. */
function writeProbe(dir: string): string | undefined {
  const probe = join(dir, `.tds-conformance-write-check-${process.pid}`);
  try {
    writeFileSync(probe, '');
    return undefined;
  } catch (err) {
    return reason(err);
  } finally {
    rmSync(probe, { force: true });
  }
}

/**
 * `--har <file>`: a file whose directory exists or can be created and written, not a directory itself. Checked before
 * the run, which otherwise wrote the traffic only at its end and failed there (HAR_WRITE_FAILED), or never ended.
 * @throws {UsageError}
 */
export function checkHarFile(file: string, given: string = file): void {
  if (existsSync(file) && statSync(file).isDirectory()) {
    throw new UsageError(`--har "${given}" is a directory: give the file to write the run's traffic to (a .har file).`);
  }
  const dir = dirname(resolve(file));
  try {
    if (existsSync(dir) && !statSync(dir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    makeDirectory(dir);
  } catch (err) {
    const code = reason(err);
    throw new UsageError(code === 'ENOTDIR' || code === 'EEXIST'
      ? `--har "${given}" cannot be written: a part of its path is a file. Give a file in a directory (it is created if absent).`
      : `--har "${given}" cannot be written (${code}): give a file in a directory you can write to.`);
  }
  const unwritable = writeProbe(dir);
  if (unwritable) throw new UsageError(`--har "${given}" cannot be written (${unwritable}): give a file in a directory you can write to.`);
}

/**
 * `mkdir -p`, one level at a time. (Node's `{ recursive: true }` never returns for a path under /proc that cannot
 * be created: it retries the ENOENT forever.)
 */
export function makeDirectory(dir: string): void {
  const missing: string[] = [];
  for (let d = resolve(dir); !existsSync(d); d = dirname(d)) {
    missing.push(d);
    if (dirname(d) === d) break;
  }
  for (const d of missing.reverse()) mkdirSync(d);
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const DRIVER_HINT = 'give the command that starts the driver as you would type it in a shell, as in --client "node my-driver.js" (docs/driver-protocol.md).';

/**
 * The command of `--client` can be started: its first word (after any `NAME=value` assignments) is a file that can
 * be run, or a command the shell finds (on PATH, a builtin). Checked with the shell the driver runs in (`/bin/sh`);
 * on Windows only the line's syntax is checked.
 * @throws {UsageError}
 */
export function checkClientCommand(command: string, cwd: string = process.cwd()): void {
  let words: string[];
  try {
    words = splitShellWords(command.trim());
  } catch (err) {
    if (err instanceof ShellSyntaxError) throw new UsageError(`--client cannot be read: ${err.message}; ${DRIVER_HINT}`);
    throw err;
  }
  const program = words.find((w) => !ASSIGNMENT.test(w));
  if (program === undefined) throw new UsageError(`--client is empty: ${DRIVER_HINT}`);
  if (process.platform === 'win32') return;
  if (program.includes('/')) {
    const path = isAbsolute(program) ? program : resolve(cwd, program);
    if (!existsSync(path)) throw new UsageError(`--client: "${program}" does not exist: ${DRIVER_HINT}`);
    try {
      if (!statSync(path).isFile()) throw new Error('not a file');
      accessSync(path, constants.X_OK);
    } catch {
      throw new UsageError(`--client: "${program}" is not a program that can be run (make it executable, or start it with its interpreter): ${DRIVER_HINT}`);
    }
    return;
  }
  const found = spawnSync('/bin/sh', ['-c', 'command -v -- "$1" >/dev/null 2>&1', 'sh', program], { cwd, stdio: 'ignore', timeout: 5_000 });
  if (found.error === undefined && found.status !== 0) {
    throw new UsageError(`--client: the command "${program}" was not found on PATH: ${DRIVER_HINT}`);
  }
}

/**
 * The module of `--client-module` exists.
 * @param given the value as typed, for the message.
 * @throws {UsageError}
 */
export function checkClientModule(path: string, given: string = path): void {
  if (!existsSync(path) || !statSync(path).isFile()) {
    throw new UsageError(`--client-module "${given}" is not a file: give the path of a module that exports createClient() (docs/driver-protocol.md).`);
  }
}

/** Runs the checks that apply to a client spec. */
export function checkClient(client: ClientSpec | undefined, given: string | undefined): void {
  if (client?.kind === 'command') checkClientCommand(client.command, client.cwd);
  if (client?.kind === 'module') checkClientModule(client.path, given);
}
