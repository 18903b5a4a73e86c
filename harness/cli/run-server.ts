/**
 * The run server: a background process that keeps a session on the simulator warm between `tds-conformance run`
 * commands in a terminal (harness/cli/run-server-client.ts decides which runs it may take, and starts it after the
 * first). A fresh process spends most of a default run compiling and optimizing code and loading Vitest; a run of a
 * kept session does not (docs/performance.md, "The run server").
 *
 * It runs each command line it is handed as the CLI would (`main`), in the caller's directory, with the caller's
 * console settings, its output sent back as it is written: the same reports, console lines and exit code. One run at
 * a time (a second caller runs in its own process). It listens on a socket in a directory private to the user, named
 * after the build it runs, and ends after `TDS_RUN_SERVER_IDLE_SECONDS` (default 600) without a run, after an
 * interrupted run (Ctrl-C passed on, or a caller that went away), on SIGTERM, SIGINT or SIGHUP, on `stop`, and when a
 * newer build of the package starts its own server.
 */
import { existsSync, readdirSync, unlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createServer } from 'node:net';
import { main } from '../cli.ts';
import { ConformanceSession } from '../runner.ts';
import { forkNoEarlyWorker } from '../run/worker-pool.ts';
import { keepSimSession } from './interruptible.ts';
import { connectTo, DEFAULT_IDLE_SECONDS, FORWARDED_ENV, packagePrefix, readMessages, sendMessage, thisBuildsServer, type ToServer } from './run-server-client.ts';

/** Whether a server already answers at `path`. */
async function answers(path: string): Promise<boolean> {
  const socket = await connectTo(path);
  socket?.end();
  return socket !== undefined;
}

/** Asks the server at `path` to stop; removes its socket if nobody answers there. */
async function stopServerAt(path: string): Promise<void> {
  const socket = await connectTo(path);
  socket?.end(`${JSON.stringify({ op: 'stop' } satisfies ToServer)}\n`);
  if (!socket) {
    try {
      unlinkSync(path);
    } catch {
      // gone already
    }
  }
}

type Stream = NodeJS.WriteStream & { isTTY?: boolean };

/**
 * Runs `body` with the process's console, directory and forwarded environment those of the caller: what is written
 * to stdout and stderr goes to `write`.
 */
async function asCaller<T>(request: Extract<ToServer, { op: 'run' }>, write: (stream: 'stdout' | 'stderr', text: string) => void, body: () => Promise<T>): Promise<T> {
  const streams = { stdout: process.stdout as Stream, stderr: process.stderr as Stream };
  const saved = {
    cwd: process.cwd(),
    env: Object.fromEntries(FORWARDED_ENV.map((name) => [name, process.env[name]])),
    write: { stdout: streams.stdout.write, stderr: streams.stderr.write },
    tty: { stdout: streams.stdout.isTTY, stderr: streams.stderr.isTTY },
  };
  for (const name of ['stdout', 'stderr'] as const) {
    streams[name].write = ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown) => {
      write(name, typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      const done = typeof encoding === 'function' ? encoding : callback;
      if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
      return true;
    }) as Stream['write'];
    streams[name].isTTY = request.tty[name];
  }
  for (const name of FORWARDED_ENV) {
    const value = request.env[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  process.chdir(request.cwd);
  try {
    return await body();
  } finally {
    process.chdir(saved.cwd);
    for (const name of FORWARDED_ENV) {
      const value = saved.env[name];
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    for (const name of ['stdout', 'stderr'] as const) {
      streams[name].write = saved.write[name];
      streams[name].isTTY = saved.tty[name];
    }
    process.exitCode = undefined;
  }
}

export async function serveRuns(): Promise<void> {
  const mine = thisBuildsServer();
  if (!mine) return;
  const { dir, key, path } = mine;
  // Another server of this build is up: it serves; a socket left by one that died is removed.
  if (existsSync(path)) {
    if (await answers(path)) return;
    try {
      unlinkSync(path);
    } catch {
      return;
    }
  }
  // The servers of this package's earlier builds (it was rebuilt, Node changed) serve nobody any more: ended now.
  for (const other of readdirSync(dir).filter((f) => f.startsWith(packagePrefix()) && f.endsWith('.sock') && f !== basename(path))) {
    await stopServerAt(join(dir, other));
  }
  forkNoEarlyWorker();
  const idleMs = Math.max(1, Number(process.env['TDS_RUN_SERVER_IDLE_SECONDS'] ?? DEFAULT_IDLE_SECONDS) || DEFAULT_IDLE_SECONDS) * 1000;
  let runs = 0;
  let busy = false;
  let ending = false;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let session: ConformanceSession | undefined;

  const server = createServer();
  const end = async (code = 0) => {
    if (ending) return;
    ending = true;
    server.close();
    try {
      unlinkSync(path);
    } catch {
      // gone already
    }
    await session?.close().catch(() => undefined);
    process.exit(code);
  };
  endServer = () => end();
  const restartIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(() => void end(), idleMs);
  };

  // On before the session opens: it takes off the signal listeners added while it opens (Vitest's).
  setOwnSignals(true);
  // The session, and a first run to warm it (its code compiled and optimized), before the first caller's run.
  const ready = (async () => {
    session = await ConformanceSession.open('sim');
    keepSimSession(session);
    await session.run({ target: 'sim', outDir: '', write: false, quiet: true, log: () => {} });
  })();
  ready.catch(() => void end(1));

  server.on('connection', (socket) => {
    let interrupted = false;
    socket.on('error', () => undefined);
    readMessages<ToServer>(socket, (message) => void handle(message));

    /**
     * Stops this connection's run as the CLI's would stop on the signal (the handlers are the run's), or, before they
     * are on, as a process without them would: at once.
     */
    const stopRun = async (signal: 'SIGINT' | 'SIGTERM'): Promise<void> => {
      interrupted = true;
      if (process.listenerCount(signal) > 0) process.emit(signal, signal);
      else await end(signal === 'SIGTERM' ? 143 : 130);
    };

    const handle = async (message: ToServer): Promise<void> => {
      switch (message.op) {
        case 'status':
          sendMessage(socket, { kind: 'status', pid: process.pid, runs, key, running: busy && !ownSignalsOn && process.listenerCount('SIGTERM') > 0 });
          socket.end();
          return;
        case 'stop':
          sendMessage(socket, { kind: 'status', pid: process.pid, runs, key, running: busy && !ownSignalsOn && process.listenerCount('SIGTERM') > 0 });
          socket.end();
          await end();
          return;
        case 'signal':
          await stopRun(message.signal);
          return;
        case 'run': {
          // A directory that is gone: the caller runs in its own process, and says so as the CLI would.
          if (busy || ending || !existsSync(message.cwd)) {
            sendMessage(socket, { kind: 'busy' });
            socket.end();
            return;
          }
          busy = true;
          clearTimeout(idle);
          let code: number | undefined;
          // A caller that went away (its terminal closed, it was killed) leaves a run nobody reads: it is stopped as
          // on SIGTERM (its report written, marked interrupted), and the server ends.
          socket.once('close', () => {
            if (code === undefined) void stopRun('SIGTERM');
          });
          try {
            await ready;
            setOwnSignals(false);
            code = await asCaller(message, (stream, text) => sendMessage(socket, { kind: 'out', stream, text }), () => main(message.argv)).catch((err: unknown) => {
              // What the CLI would have thrown (TDS_DEBUG=1 rethrows its internal errors): shown as it would show it.
              sendMessage(socket, { kind: 'out', stream: 'stderr', text: `${err instanceof Error ? err.stack ?? err.message : String(err)}\n` });
              return 1;
            });
            runs++;
            sendMessage(socket, { kind: 'exit', code });
            socket.end();
          } finally {
            setOwnSignals(true);
            busy = false;
            // An interrupted run closed the kept session: this server is done.
            if (interrupted || code === 130 || code === 143) await end();
            else restartIdle();
          }
          return;
        }
      }
    };
  });
  // However the process ends (Vitest's own signal handlers may end it first), its socket goes with it.
  process.on('exit', () => {
    try {
      unlinkSync(path);
    } catch {
      // gone already
    }
  });
  server.listen(path, () => restartIdle());
  server.on('error', () => void end(1));
}

/** How the server ends (its socket removed, its session closed), once it serves. */
let endServer: () => Promise<void> = async () => process.exit(0);

/** The server's own signal handlers (it ends), off while a run has its own (which stop the run, as in the CLI). */
const onOwnSignal = () => void endServer();
let ownSignalsOn = false;
function setOwnSignals(on: boolean): void {
  ownSignalsOn = on;
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    if (on) process.on(signal, onOwnSignal);
    else process.off(signal, onOwnSignal);
  }
}
