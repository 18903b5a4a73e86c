/**
 * The test workers of a conformance session: Vitest's `forks` workers (the same entry point, arguments and
 * environment), with two differences that cut a run's fixed cost (issue 29):
 *
 * - **Started ahead.** The session forks its first worker before it imports Vitest, so that the worker loads its
 *   runtime while the main process loads Vitest (0.2 s each, on two CPUs at once). Vitest takes that worker when the
 *   run starts if it was started with exactly the entry point, arguments and environment Vitest asks for; otherwise
 *   the spare is ended and Vitest's own is forked.
 * - **Kept between runs.** A session that makes many runs (the self-test, the latitude property) keeps a worker when
 *   a run ends and gives it the next run, when that run asks for the same worker (entry point, arguments, and the
 *   environment variables a process reads as it starts: the others are sent to the worker before the run,
 *   harness/run/worker-env.ts) and the same start (project configuration and test environment): the worker's runtime, the
 *   harness's modules and their compiled code, and the schema validator are loaded once per session, not once per
 *   run. Vitest evaluates the test files and setup files again for every run (as for every file of a worker without
 *   isolation); what the harness's modules keep for a run is reset when a worker sees a new run
 *   (harness/checks/run-scope.ts). A worker is retired after {@link MAX_RUNS} runs.
 *
 * Vitest's custom pool API (`pool: { name, createPoolWorker }`, Vitest 4) is the seam; the messages between Vitest and
 * its worker are Vitest's own: a kept worker is not sent `stop` at the end of a run (it is told nothing, and kept), and
 * is not sent `start` again at the next (Vitest is answered `started` for it).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isatty } from 'node:tty';
import { serialize } from 'node:v8';
import type { PoolOptions, PoolWorker, WorkerRequest } from 'vitest/node';
import { CODE_EXT } from '../package-info.ts';
import { mark } from '../timing.ts';
import { envUpdate, startEnv } from './worker-env.ts';

/** The pool's name in Vitest's configuration (any name but Vitest's own pools'). */
const POOL_NAME = 'tds-forks';

/**
 * Runs a kept worker serves before it is ended and a fresh one forked: bounds what a long session can pile up. A worker
 * kept for 96 runs at `--runs 1` (default and client runs, one after the other) held 194 MiB after 8 runs, 239 after
 * 32, 261 after 96: its growth slows to about 0.3 MiB a run, and every fresh worker pays its start and its cold code
 * again (a second or more of CPU).
 */
const MAX_RUNS = 100;

/** How a worker process is started: what Vitest would fork it with. */
interface Spawn {
  readonly entry: string;
  readonly execArgv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * What the session's workers load first, besides Vitest's arguments: with the compiled harness, the modules every test
 * file's setup imports (harness/run/worker-preload.ts), loaded while the worker waits for its run.
 */
const PRELOAD: readonly string[] = CODE_EXT === '.js' ? ['--import', pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), 'worker-preload.js')).href] : [];

const spawnKey = (s: Spawn): string => JSON.stringify([s.entry, s.execArgv, Object.entries(s.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);

/** What a worker that has run must have been started with to serve a run: its environment but what it can take on later. */
const startedKey = (s: Spawn): string => JSON.stringify([s.entry, s.execArgv, startEnv(s.env)]);

/**
 * What a `start` request asks of a worker, without the IDs Vitest numbers each run with: the bytes of its
 * configuration and test environment as the worker receives them (the channel's structured clone, which keeps what
 * JSON would lose, such as the RegExp of the test name pattern a run selects its checks with). But for the count of
 * workers: the main process schedules files by it, and a worker reads it only to keep a debugger open in watch mode
 * (never here), so that a run given more workers (a driver-process client's, harness/run/session.ts) and the runs
 * before and after it take the same workers.
 */
function startKey(message: WorkerRequest & { type: 'start' }): string {
  const { maxWorkers: _scheduling, ...config } = message.context.config;
  return serialize([message.options, { ...message.context, config }]).toString('base64');
}

interface Kept {
  readonly child: ChildProcess;
  readonly key: string;
  /** The environment the worker has: the one it was forked with, or the one the last run that took it gave it. */
  readonly env: Spawn['env'];
  /** The start the worker was given, or none yet (a spare). */
  readonly started: string | undefined;
  readonly runs: number;
}

function alive(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null && child.connected;
}

function end(child: ChildProcess): Promise<void> {
  // Ended already (by its exit or a signal): its 'exit' event has been emitted and will not come again.
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 500);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill();
  });
}

function forkWorker(s: Spawn): ChildProcess {
  return fork(s.entry, [], { env: { ...s.env }, execArgv: [...s.execArgv], stdio: 'pipe', serialization: 'advanced' });
}

/** A worker forked ahead of its run, as Vitest would fork it, with the key a run's spawn must match to take it. */
function forkSpare(): { readonly child: ChildProcess; readonly key: string; readonly env: Spawn['env'] } {
  const spawn = expectedSpawn();
  const child = forkWorker(spawn);
  child.on('error', () => undefined);
  return { child, key: spawnKey(spawn), env: spawn.env };
}

/**
 * The worker Vitest forks for a project configured as the session's is (harness/run/session.ts): its entry point,
 * arguments and environment, known before Vitest is loaded. Vitest's rules (vitest/dist, `resolveOptions` and
 * `resolveConditions`): the profiling arguments of this process, `--experimental-import-meta-resolve`, its warning
 * filter, the resolve conditions of Vite's server side (none added by the session's configuration); this process's
 * environment with Vitest's variables and Vite's.
 */
function expectedSpawn(): Spawn {
  const root = dirname(createRequire(import.meta.url).resolve('vitest/package.json'));
  return {
    entry: join(root, 'dist', 'workers', 'forks.js'),
    execArgv: [
      ...process.execArgv.filter((a) => a.startsWith('--cpu-prof') || a.startsWith('--heap-prof') || a.startsWith('--diagnostic-dir')),
      '--experimental-import-meta-resolve',
      '--require',
      join(root, 'suppress-warnings.cjs'),
      ...['node', 'development'].flatMap((c) => ['--conditions', c]),
      ...PRELOAD,
    ],
    // Vitest's variables, then Vite's `import.meta.env` of the `test` mode (Vite sets NODE_ENV when it is not set).
    env: {
      ...process.env,
      TEST: 'true', VITEST: 'true', VITEST_MODE: 'RUN', FORCE_TTY: isatty(1) ? 'true' : '',
      BASE_URL: '/', MODE: 'test', DEV: '1', PROD: '', NODE_ENV: process.env['NODE_ENV'] || 'development',
    },
  };
}

/** Holds or lets go of the event loop for a worker's process, its channel and its output pipes. */
function holdLoop(child: ChildProcess, hold: boolean): void {
  for (const handle of [child, child.channel, child.stdout, child.stderr] as ({ ref?(): void; unref?(): void } | null | undefined)[]) {
    if (hold) handle?.ref?.();
    else handle?.unref?.();
  }
}

/** A worker the CLI started before it loaded the run's modules, for the session it opens next to take. */
let early: ReturnType<typeof forkSpare> | undefined;

/**
 * Forks the first test worker now, as Vitest would fork it (the CLI calls this as soon as it knows a run is asked
 * for, before it loads the run's modules and checks its input): the session that opens next takes it. Until then it
 * does not hold the process open, and it is ended when the process exits without taking it (a usage error, say).
 */
export function startWorkerEarly(): void {
  if (early || noEarlyWorker) return;
  const spare = forkSpare();
  holdLoop(spare.child, false);
  process.once('exit', () => {
    if (early === spare) spare.child.kill('SIGKILL');
  });
  early = spare;
}

let noEarlyWorker = false;

/** Makes {@link startWorkerEarly} fork nothing: the run server's runs take the workers its session keeps. */
export function forkNoEarlyWorker(): void {
  noEarlyWorker = true;
}

/** Ends the worker {@link startWorkerEarly} forked, if no session took it (the bin runs the sources instead). */
export function endWorkerEarly(): void {
  if (early && alive(early.child)) early.child.kill('SIGKILL');
  early = undefined;
}

/** The workers a session holds between runs: a spare started ahead, or a worker kept from the last run. */
export class WorkerKeeper {
  #kept: Kept[] = [];
  #closed = false;
  readonly #reuse: boolean;
  /** Counters for the tests and the timing marks: workers forked, taken ready, kept for a next run. */
  readonly stats = { forked: 0, spares: 0, reused: 0 };

  /** `reuse`: keep a worker when a run ends, for the next run of the session. */
  constructor(options: { readonly reuse: boolean }) {
    this.#reuse = options.reuse;
  }

  get reuse(): boolean {
    return this.#reuse && !this.#closed;
  }

  /** Forks a worker now (or takes the one the CLI started early), as Vitest would fork it, for the first run to take. */
  prespawn(): void {
    if (this.#closed) return;
    const taken = early && alive(early.child) ? early : undefined;
    early = undefined;
    const spare = taken ?? forkSpare();
    if (taken) holdLoop(taken.child, true);
    else this.stats.forked++;
    this.#kept.push({ ...spare, started: undefined, runs: 0 });
  }

  /**
   * A kept worker started as `spawn` asks, if there is one (the others of another start are ended). A worker that has
   * run also serves a spawn whose environment differs only in variables read while a run goes on (harness/run/worker-env.ts):
   * it is sent the new values before the run. A spare has not run its setup yet, which takes them: it must match exactly.
   * (A listener loaded ahead of Vitest's, with `--import`, would take them in a spare too, but Node then delivers the
   * channel's messages before Vitest's worker listens: a fresh worker loses its `start` and the run hangs. Tried.)
   */
  take(spawn: Spawn): Kept | undefined {
    const key = spawnKey(spawn);
    const started = startedKey(spawn);
    const serves = (k: Kept) => alive(k.child) && (k.key === key || (k.started !== undefined && startedKey({ ...spawn, env: k.env }) === started));
    let i = this.#kept.findIndex((k) => k.key === key && alive(k.child));
    if (i === -1) i = this.#kept.findIndex(serves);
    const found = i === -1 ? undefined : this.#kept.splice(i, 1)[0];
    const update = found && envUpdate(found.env, spawn.env);
    if (found && update) found.child.send(update);
    // The others that could serve this spawn stay for the run's other workers (a session of several); those started
    // for another spawn (the environment changed between runs) would never be taken.
    const stale = this.#kept.filter((k) => !serves(k));
    this.#kept = this.#kept.filter(serves);
    for (const other of stale) {
      mark('worker-not-taken');
      void end(other.child);
    }
    return found;
  }

  /** Keeps a worker after its run, for the next. */
  keep(kept: Kept): void {
    if (!this.reuse || kept.runs >= MAX_RUNS || !alive(kept.child)) {
      void end(kept.child);
      return;
    }
    this.#kept.push(kept);
  }

  /** Ends every kept worker. */
  async close(): Promise<void> {
    this.#closed = true;
    const kept = this.#kept.splice(0);
    await Promise.all(kept.map((k) => end(k.child)));
  }

  /** The pool Vitest's configuration names (`pool`): its workers come from this keeper. */
  pool(): { readonly name: string; createPoolWorker(options: PoolOptions): PoolWorker } {
    return { name: POOL_NAME, createPoolWorker: (options) => new KeptForksWorker(options, this) };
  }
}

type Listener = (arg: unknown) => void;

/**
 * One run's worker, as Vitest's pool runner sees it: a child process forked like Vitest's `forks` worker, or one the
 * keeper held (started ahead, or kept from the run before).
 */
class KeptForksWorker implements PoolWorker {
  readonly name = POOL_NAME;
  readonly cacheFs = true;
  readonly #spawn: Spawn;
  readonly #keeper: WorkerKeeper;
  readonly #out: NodeJS.WritableStream;
  readonly #err: NodeJS.WritableStream;
  #child: ChildProcess | undefined;
  #started: string | undefined;
  #runs = 0;
  #keepAtStop = false;
  /** A run was sent and its end not yet answered: a worker stopped then (a cancelled run) is ended, not kept. */
  #busy = false;
  readonly #finished = (message: unknown): void => {
    if ((message as { type?: unknown } | null)?.type === 'testfileFinished') this.#busy = false;
  };
  readonly #listeners: [string, Listener][] = [];

  constructor(options: PoolOptions, keeper: WorkerKeeper) {
    this.#spawn = { entry: join(options.distPath, 'workers', 'forks.js'), execArgv: [...options.execArgv, ...PRELOAD], env: options.env };
    this.#keeper = keeper;
    this.#out = options.project.vitest.logger.outputStream;
    this.#err = options.project.vitest.logger.errorStream;
  }

  get #process(): ChildProcess {
    if (!this.#child) throw new Error('the test worker was ended or never started');
    return this.#child;
  }

  async start(): Promise<void> {
    if (this.#child) return;
    const kept = this.#keeper.take(this.#spawn);
    if (kept) {
      this.#keeper.stats[kept.started === undefined ? 'spares' : 'reused']++;
      mark(kept.started === undefined ? 'worker-spare-taken' : 'worker-reused');
      this.#child = kept.child;
      this.#started = kept.started;
      this.#runs = kept.runs;
    } else {
      this.#child = forkWorker(this.#spawn);
      this.#keeper.stats.forked++;
    }
    this.#attach(this.#child);
  }

  /** Vitest's listeners on `child`, this worker's own, and its output into Vitest's. */
  #attach(child: ChildProcess): void {
    for (const [event, callback] of this.#listeners) child.on(event, callback);
    child.on('message', this.#finished);
    child.stdout?.pipe(this.#out, { end: false });
    child.stderr?.pipe(this.#err, { end: false });
  }

  /** Undoes {@link #attach}: `child` then answers nobody here (it is kept, or ended). */
  #detach(child: ChildProcess): void {
    for (const [event, callback] of this.#listeners) child.off(event, callback);
    child.off('message', this.#finished);
    child.stdout?.unpipe(this.#out);
    child.stderr?.unpipe(this.#err);
  }

  on(event: string, callback: Listener): void {
    this.#listeners.push([event, callback]);
    this.#process.on(event, callback);
  }

  off(event: string, callback: Listener): void {
    const i = this.#listeners.findIndex(([e, c]) => e === event && c === callback);
    if (i !== -1) this.#listeners.splice(i, 1);
    this.#child?.off(event, callback);
  }

  /** Answers Vitest for the worker, as the worker would (`started`, `stopped`), without asking it. */
  #answer(type: 'started' | 'stopped'): void {
    const message = { type, __vitest_worker_response__: true };
    setImmediate(() => {
      for (const [event, callback] of [...this.#listeners]) if (event === 'message') callback(message);
    });
  }

  send(message: WorkerRequest): void {
    if (message.type === 'start') {
      const key = startKey(message);
      if (this.#started === key) return this.#answer('started');
      // A kept worker asked for another start (another configuration) cannot be started twice: a fresh one is.
      if (this.#started !== undefined) this.#replace();
      this.#started = key;
    } else if (message.type === 'run') {
      this.#runs++;
      this.#busy = true;
    } else if (message.type === 'stop' && !this.#busy && this.#keeper.reuse && this.#child && alive(this.#child) && this.#runs < MAX_RUNS) {
      this.#keepAtStop = true;
      return this.#answer('stopped');
    }
    this.#process.send(message);
  }

  /** Ends the worker held and forks a fresh one in its place, with the same listeners. */
  #replace(): void {
    const old = this.#process;
    this.#detach(old);
    void end(old);
    this.#child = forkWorker(this.#spawn);
    this.#keeper.stats.forked++;
    this.#runs = 0;
    this.#attach(this.#child);
  }

  deserialize(data: unknown): unknown {
    return data;
  }

  async stop(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    this.#child = undefined;
    this.#detach(child);
    this.#listeners.length = 0;
    if (this.#keepAtStop && this.#started !== undefined) {
      this.#keeper.keep({ child, key: spawnKey(this.#spawn), env: this.#spawn.env, started: this.#started, runs: this.#runs });
      return;
    }
    await end(child);
  }
}
