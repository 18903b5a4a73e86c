/**
 * The CLI's side of the run server (harness/cli/run-server.ts): a process that keeps a warm session on the simulator
 * between `tds-conformance run` commands, so that a later run on the simulator takes what a later run of a session
 * takes (its code compiled and optimized, Vitest and its worker loaded) instead of a fresh process's start.
 *
 * The bin imports this module before anything else of the harness: it loads only Node's own modules and the package's
 * root (harness/package-info.ts). A run is handed
 * to a server only when it is one a server runs exactly as the CLI would ({@link servable}); any doubt, and the run is
 * the CLI's own. No secret reaches a server: it runs the built-in simulator only (no live target, no client of the
 * user's), whose accounts are made up for the run.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../package-info.ts';

/** The environment variables of the caller a served run takes (the console's colours, CI annotations). */
export const FORWARDED_ENV = ['NO_COLOR', 'FORCE_COLOR', 'GITHUB_ACTIONS', 'TERM', 'COLUMNS'] as const;

/** Idle time after which a server ends, unless `TDS_RUN_SERVER_IDLE_SECONDS` says otherwise. */
export const DEFAULT_IDLE_SECONDS = 600;

/** A message from the CLI to a server (one JSON object per line). */
export type ToServer =
  | {
      readonly op: 'run';
      readonly argv: readonly string[];
      readonly cwd: string;
      readonly env: Readonly<Partial<Record<(typeof FORWARDED_ENV)[number], string>>>;
      readonly tty: { readonly stdout: boolean; readonly stderr: boolean };
    }
  | { readonly op: 'signal'; readonly signal: 'SIGINT' | 'SIGTERM' }
  | { readonly op: 'status' }
  | { readonly op: 'stop' };

/** A message from a server to the CLI. */
export type FromServer =
  | { readonly kind: 'out'; readonly stream: 'stdout' | 'stderr'; readonly text: string }
  | { readonly kind: 'exit'; readonly code: number }
  | { readonly kind: 'busy' }
  | {
      readonly kind: 'status';
      readonly pid: number;
      /** Runs served so far. */
      readonly runs: number;
      readonly key: string;
      /** A run is going on, past its start (its Ctrl-C handlers on: a signal now stops it as it stops the CLI's). */
      readonly running: boolean;
    };

const hash = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 12);

/**
 * The build a server runs: `<the package's path>-<its build's time, Node's version and executable>`, each hashed. A
 * server of another build (the package rebuilt or upgraded, another Node) has another key, and is never used; a new
 * server of a package ends the older ones of the same path ({@link packagePrefix}).
 */
export function serverKey(root: string = PACKAGE_ROOT, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const built = statSync(join(root, 'dist', 'harness', 'cli.js'), { throwIfNoEntry: false });
  if (!built) return undefined;
  const marker = statSync(join(root, 'dist', '.built'), { throwIfNoEntry: false });
  return `${packagePrefix(root)}${hash([built.mtimeMs, built.size, marker?.mtimeMs ?? 0, process.version, process.execPath, settingsOf(env)])}`;
}

/**
 * The settings a server takes from the environment it was started in, for all its runs: Node's options and the
 * harness's own variables (the module cache's place, `TDS_DEBUG`…). A run in another environment gets another server.
 */
function settingsOf(env: NodeJS.ProcessEnv): string {
  return Object.keys(env)
    .filter((name) => name === 'NODE_OPTIONS' || (name.startsWith('TDS_') && !name.startsWith('TDS_RUN_SERVER')))
    .sort()
    .map((name) => `${name}=${env[name]}`)
    .join('\n');
}

/** The start of the keys of every build of the package at `root`. */
export function packagePrefix(root: string = PACKAGE_ROOT): string {
  return `${hash(root)}-`;
}

/**
 * The directory of this user's servers' sockets: `TDS_RUN_SERVER_DIR`, else `tds-conformance-<uid>` in the system's
 * temporary directory. Made private (0700); `undefined` when it cannot be, or is not this user's alone (a socket
 * another user could have put there is never connected to).
 */
export function serverDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return undefined;
  const dir = env['TDS_RUN_SERVER_DIR'] || join(tmpdir(), `tds-conformance-${process.getuid()}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = statSync(dir);
    if (!st.isDirectory() || st.uid !== process.getuid() || (st.mode & 0o077) !== 0) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/** The socket of the server of this build. */
function socketPath(dir: string, key: string): string {
  return join(dir, `${key}.sock`);
}

/** Where the server of this build (and of `env`'s settings) listens, or would: `undefined` when none may. */
export function thisBuildsServer(env: NodeJS.ProcessEnv = process.env): { readonly dir: string; readonly key: string; readonly path: string } | undefined {
  const dir = serverDir(env);
  const key = serverKey(PACKAGE_ROOT, env);
  return dir && key ? { dir, key, path: socketPath(dir, key) } : undefined;
}

/** Options that make a run a server cannot run as the CLI would: another target, a client of the user's. */
const NOT_SERVED = new Set(['--client', '--client-module']);

/**
 * Whether a command line may be handed to a server: `run` on the built-in simulator (the default target, or
 * `--target sim`), without a client of the user's (a driver would start with the server's environment, a module
 * would be the one the server loaded first), not `--help`. `TDS_RUN_SERVER=0` never hands a run over, `=1` always
 * may; unset, only in a terminal (standard error a TTY) outside CI, where a user makes one run after another.
 */
export function servable(argv: readonly string[], env: NodeJS.ProcessEnv = process.env, stderrIsTty = process.stderr.isTTY === true): boolean {
  const setting = env['TDS_RUN_SERVER'];
  if (setting === '0') return false;
  if (setting !== '1' && (!stderrIsTty || env['CI'])) return false;
  // The timing marks are the CLI process's own (TDS_TIMING): a served run would not print them.
  if (env['TDS_TIMING']) return false;
  const [command, ...args] = argv;
  if (command !== 'run') return false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const name = arg.startsWith('--') ? arg.split('=')[0]! : arg;
    if (name === '--help' || name === '-h' || NOT_SERVED.has(name)) return false;
    if (name === '--target') {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[i + 1];
      if (value !== 'sim') return false;
    }
  }
  return true;
}

/** Writes a message (one JSON object per line) on `socket`, both ways; nothing once the other side is gone. */
export function sendMessage<T extends ToServer | FromServer>(socket: Socket, message: T): void {
  if (!socket.destroyed) socket.write(`${JSON.stringify(message)}\n`);
}

/**
 * Calls `onMessage` with each message (a JSON object per line) that comes on `socket`, both ways; a line that is not
 * JSON ends the connection.
 */
export function readMessages<T>(socket: Socket, onMessage: (message: T) => void): void {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (!line) continue;
      let message: T;
      try {
        message = JSON.parse(line) as T;
      } catch {
        socket.destroy();
        return;
      }
      onMessage(message);
    }
  });
}

/** Connects to the socket at `path`; `undefined` when nothing listens there. */
export function connectTo(path: string): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => resolve(socket));
    socket.once('error', () => resolve(undefined));
  });
}

/** What {@link tryServedRun} did: the run's exit code, or why the run is the CLI's own. */
export type ServedRun =
  | { readonly served: true; readonly code: number }
  | { readonly served: false; readonly reason: 'not-servable' | 'no-server' | 'busy' };

/**
 * Hands the run to the server of this build, if one is up and idle: its output is written here as it comes, a
 * Ctrl-C (SIGINT, SIGTERM) is passed on (the server stops the run as the CLI would: report marked interrupted, exit
 * 130 or 143; a second one ends the server), and the server's exit code is the run's.
 */
export async function tryServedRun(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<ServedRun> {
  const server = servable(argv, env) ? thisBuildsServer(env) : undefined;
  if (!server) return { served: false, reason: 'not-servable' };
  const socket = await connectTo(server.path);
  if (!socket) return { served: false, reason: 'no-server' };
  // A console nobody reads any more does not stop the run (as in the CLI's own process: harness/cli.ts).
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  return new Promise<ServedRun>((resolve) => {
    let signalled: 'SIGINT' | 'SIGTERM' | undefined;
    let signals = 0;
    let settled = false;
    const onSignal = (signal: 'SIGINT' | 'SIGTERM') => {
      signalled ??= signal;
      // The server stops the run on the first, quits on the second; a third is not waited on (a server that hangs).
      if (++signals >= 3) process.exit(signalled === 'SIGTERM' ? 143 : 130);
      sendMessage(socket, { op: 'signal', signal });
    };
    const onInt = () => onSignal('SIGINT');
    const onTerm = () => onSignal('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    const settle = (result: ServedRun) => {
      if (settled) return;
      settled = true;
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      socket.end();
      resolve(result);
    };
    readMessages<FromServer>(socket, (message) => {
      if (message.kind === 'out') (message.stream === 'stdout' ? process.stdout : process.stderr).write(message.text);
      else if (message.kind === 'exit') settle({ served: true, code: message.code });
      else if (message.kind === 'busy') settle({ served: false, reason: 'busy' });
    });
    // A server that ends without an exit code (a second Ctrl-C quits at once, or it failed): the signal's code, else 1.
    socket.on('close', () => {
      if (!settled && !signalled) process.stderr.write('tds-conformance: the run server ended before the run did; run again (TDS_RUN_SERVER=0 runs in this process)\n');
      settle({ served: true, code: signalled === 'SIGTERM' ? 143 : signalled ? 130 : 1 });
    });
    socket.on('error', () => undefined);
    const forwarded: Partial<Record<(typeof FORWARDED_ENV)[number], string>> = {};
    for (const name of FORWARDED_ENV) if (env[name] !== undefined) forwarded[name] = env[name];
    sendMessage(socket, { op: 'run', argv, cwd: process.cwd(), env: forwarded, tty: { stdout: process.stdout.isTTY === true, stderr: process.stderr.isTTY === true } });
  });
}

/**
 * Starts the server of this build in the background, for the runs after this one: detached, its output discarded, it
 * ends after `TDS_RUN_SERVER_IDLE_SECONDS` (default 600) without a run. Says so in one line on standard error.
 */
export function startServer(env: NodeJS.ProcessEnv = process.env): void {
  const server = thisBuildsServer(env);
  const main = join(PACKAGE_ROOT, 'dist', 'harness', 'cli', 'run-server-main.js');
  if (!server || !statSync(main, { throwIfNoEntry: false })) return;
  const child = spawn(process.execPath, [main], { detached: true, stdio: 'ignore', env: { ...env, TDS_RUN_SERVER_DIR: server.dir } });
  child.on('error', () => undefined);
  child.unref();
  const idle = Number(env['TDS_RUN_SERVER_IDLE_SECONDS'] ?? DEFAULT_IDLE_SECONDS);
  process.stderr.write(`tds-conformance: started a run server for the next runs on the simulator (pid ${child.pid}; it ends after ${idle} s without a run; TDS_RUN_SERVER=0 turns it off)\n`);
}

/** Asks the server of this build how it is, or (`stop`) to end (`undefined`: none is up). For the tests and the bench. */
export async function serverStatus(env: NodeJS.ProcessEnv = process.env, op: 'status' | 'stop' = 'status'): Promise<Extract<FromServer, { kind: 'status' }> | undefined> {
  const server = thisBuildsServer(env);
  const socket = server && (await connectTo(server.path));
  if (!socket) return undefined;
  return new Promise((resolve) => {
    readMessages<FromServer>(socket, (message) => {
      if (message.kind === 'status') {
        socket.end();
        resolve(message);
      }
    });
    socket.on('close', () => resolve(undefined));
    socket.on('error', () => undefined);
    sendMessage(socket, { op });
  });
}
