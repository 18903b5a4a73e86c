/**
 * A kept test worker's environment (issue 29): a session keeps its worker for the next run when that run asks for the
 * same start (harness/run/worker-pool.ts). Vitest forks a worker with the environment of the moment, and tests change
 * it between runs: the password variables a live target's configuration names, a driver's variables, and Vitest's own
 * VITEST_WORKER_ID, which it changes for every test file. A variable read only while a run goes on (a password, read
 * when the run's target is made; a driver's, read by the driver the run starts) does not need a new process: the kept
 * worker is given the new values before its run. A variable read when a process starts or loads its modules does.
 */

/** The message a kept worker gets before a run whose environment differs: the variables to set, and those to remove. */
export interface EnvUpdate {
  readonly __tdsEnv__: { readonly set: Readonly<Record<string, string>>; readonly unset: readonly string[] };
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The variables a worker reads as it starts or loads its modules, which a kept worker could not take on: Node's,
 * V8's and libuv's (`NODE_OPTIONS`, `NODE_EXTRA_CA_CERTS`, `UV_THREADPOOL_SIZE`…), Vite's and Vitest's (but the two
 * IDs Vitest sets itself at every start and run), the terminal's and the CI's (colours, `std-env`), the locale and
 * time zone, OpenSSL's, `DEBUG`, and the harness's own timing switch.
 */
const READ_AT_START = /^(?:NODE_\w*|UV_\w*|V8_\w*|VITE\w*|FORCE_COLOR|NO_COLOR|TERM|COLORTERM|CI|GITHUB_ACTIONS|TZ|LANG|LANGUAGE|LC_\w*|SSL_CERT_\w*|OPENSSL_\w*|DEBUG|TDS_TIMING)$/;

/** Set by Vitest in the worker at every `start` and `run`: what a fork inherited of them is never read. */
const SET_BY_VITEST = new Set(['VITEST_WORKER_ID', 'VITEST_POOL_ID']);

/** Whether a kept worker must be forked again for a run whose environment has another value of `name`. */
export function readAtStart(name: string): boolean {
  return READ_AT_START.test(name) && !SET_BY_VITEST.has(name);
}

/** The part of an environment a kept worker must have been started with: the variables {@link readAtStart}. */
export function startEnv(env: Env): [string, string][] {
  return Object.entries(env)
    .filter((e): e is [string, string] => e[1] !== undefined && readAtStart(e[0]))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** What turns a worker started with `from` into one started with `to`, or nothing when they are the same. */
export function envUpdate(from: Env, to: Env): EnvUpdate | undefined {
  const set: Record<string, string> = {};
  const unset: string[] = [];
  for (const [k, v] of Object.entries(to)) if (v !== undefined && from[k] !== v) set[k] = v;
  for (const [k, v] of Object.entries(from)) if (v !== undefined && to[k] === undefined) unset.push(k);
  return Object.keys(set).length === 0 && unset.length === 0 ? undefined : { __tdsEnv__: { set, unset } };
}

function isEnvUpdate(message: unknown): message is EnvUpdate {
  return typeof message === 'object' && message !== null && '__tdsEnv__' in message;
}

/** Applies an {@link EnvUpdate} to `env` (the worker's `process.env`). */
export function applyEnvUpdate(update: EnvUpdate, env: NodeJS.ProcessEnv = process.env): void {
  for (const k of update.__tdsEnv__.unset) delete env[k];
  Object.assign(env, update.__tdsEnv__.set);
}

const INSTALLED = Symbol.for('tds-conformance.worker-env');

/**
 * In a test worker: takes the environment updates the session sends before a run. Once per process (the setup file
 * that calls it is evaluated for every file). The update arrives on the channel before the run's request, so the run
 * reads the new values from its start.
 */
export function followSessionEnv(): void {
  const global = globalThis as { [INSTALLED]?: true };
  if (global[INSTALLED] || typeof process.send !== 'function') return;
  global[INSTALLED] = true;
  process.on('message', (message: unknown) => {
    if (isEnvUpdate(message)) applyEnvUpdate(message);
  });
}
