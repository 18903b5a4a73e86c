import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import {
  ClientError, type ClientAdapter, type DriverAnswer, type DriverError, type DriverErrorKind, type DriverOp, type DriverRequest, type DriverResults,
} from './protocol.ts';

export type DriverFailureCode = 'DRIVER_START_FAILED' | 'DRIVER_EXITED' | 'DRIVER_TIMEOUT' | 'DRIVER_PROTOCOL';

/**
 * The driver process misbehaved: it could not start, exited, did not answer in time, or printed something that is
 * not an answer. The check it happened in is an `error` (the client could not be examined), not a `fail`.
 */
export class DriverFailure extends Error {
  constructor(
    readonly code: DriverFailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'DriverFailure';
  }
}

export interface DriverProcessOptions {
  /** Time limit of one op (ms). */
  readonly opTimeoutMs?: number;
  /** Time the driver has to answer `shutdown` and exit before it is killed (ms). */
  readonly shutdownTimeoutMs?: number;
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Applied to what the driver printed before it is clipped into a message or a diagnostic (default: nothing): a
   * secret cut in half by the clipping would no longer be found by the report's redaction.
   */
  readonly redact?: (text: string) => string;
}

const KINDS: readonly string[] = ['auth', 'transport', 'protocol', 'unsupported'] satisfies readonly DriverErrorKind[];
const clip = (s: string, n = 200) => (s.length > n ? `${s.slice(0, n)}…` : s);
/** How many stdout lines that are not answers a driver process keeps for the report. */
const MAX_DIAGNOSTICS = 20;

/**
 * The answer a stdout line holds, if it holds one: a JSON object with an integer `id` and a boolean `ok`. Anything
 * else is not an answer (see docs/driver-protocol.md, "Framing").
 */
export function parseAnswer(line: string): (DriverAnswer & { readonly error?: unknown }) | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { id, ok } = value as { id?: unknown; ok?: unknown };
  if (typeof id !== 'number' || !Number.isInteger(id) || typeof ok !== 'boolean') return undefined;
  return value as DriverAnswer;
}

/** What an op's result must hold, by the driver protocol: the field missing, or `undefined`. */
function resultProblem(op: DriverOp, result: Record<string, unknown>): string | undefined {
  switch (op) {
    case 'rest.call': return Number.isInteger(result.status) ? undefined : 'integer "status"';
    case 'soap.call':
    case 'soap.session.call': return typeof result.action === 'string' ? undefined : 'string "action"';
    case 'soap.session.open': return typeof result.session === 'string' && result.session !== '' ? undefined : 'string "session"';
    default: return undefined;
  }
}

/** Every driver process this harness started and has not seen exit: ended when the harness process exits. */
const live = new Set<ChildProcessWithoutNullStreams>();
/** Kills the driver's whole process group: the shell the command runs in, and what it started. */
function killGroup(child: ChildProcessWithoutNullStreams): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

process.once('exit', () => {
  for (const child of live) killGroup(child);
});

/**
 * SIGINT and SIGTERM end the drivers too (an interrupted run ends its worker by a signal, which skips the 'exit' hook
 * above, and a driver runs in a process group of its own): their groups are killed, then the signal has its default
 * effect again, unless another handler of this process (the registry's drain) decides when the process ends.
 */
let signalsHooked = false;
function endDriversOnSignals(): void {
  if (signalsHooked) return;
  signalsHooked = true;
  const onSignal = (signal: NodeJS.Signals) => {
    for (const child of live) killGroup(child);
    if (process.listenerCount(signal) > 1) return;
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.kill(process.pid, signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/**
 * A client under test running as a separate process (any language), driven over stdin/stdout with the driver
 * protocol. Presents the same {@link ClientAdapter} as an in-process client. The process is always ended: after
 * `shutdown`, by {@link DriverProcess.kill}, and when the harness exits.
 */
export class DriverProcess implements ClientAdapter {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #pending = new Map<number, { op: DriverOp; resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  readonly #options: Required<Pick<DriverProcessOptions, 'opTimeoutMs' | 'shutdownTimeoutMs'>>;
  #nextId = 0;
  #stderr = '';
  readonly #diagnostics: string[] = [];
  #diagnosticCount = 0;
  #exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  readonly #exit: Promise<void>;
  readonly #redact: (text: string) => string;
  #shuttingDown = false;
  #failure: DriverFailure | undefined;

  /**
   * The first way the driver broke the protocol or its process (an exit nobody asked for, no answer in time, an answer
   * that is not one): a check that caught the op's error is still an `error` of the driver, not a verdict.
   */
  get failure(): DriverFailure | undefined {
    return this.#failure;
  }

  #broken(failure: DriverFailure): DriverFailure {
    this.#failure ??= failure;
    return failure;
  }

  constructor(readonly command: string, options: DriverProcessOptions = {}) {
    this.#options = { opTimeoutMs: options.opTimeoutMs ?? 30_000, shutdownTimeoutMs: options.shutdownTimeoutMs ?? 10_000 };
    this.#redact = options.redact ?? ((text) => text);
    // A process group of its own, so that ending the driver ends what its shell started too.
    this.#child = spawn(command, { shell: true, stdio: 'pipe', cwd: options.cwd, env: options.env ?? process.env, detached: true });
    live.add(this.#child);
    endDriversOnSignals();
    this.#child.stdin.on('error', () => undefined);
    this.#child.stderr.on('data', (d: Buffer) => {
      this.#stderr = (this.#stderr + d.toString('utf8')).slice(-2_000);
    });
    this.#exit = new Promise((resolve) => {
      this.#child.once('exit', (code, signal) => {
        this.#exited = { code, signal };
        live.delete(this.#child);
        for (const [id, p] of this.#pending) {
          clearTimeout(p.timer);
          p.reject(this.#broken(new DriverFailure('DRIVER_EXITED', `the driver "${clip(this.command, 80)}" exited (${signal ?? `code ${code}`}) during "${p.op}"${this.#stderrTail()}${this.#diagnosticsTail()}`)));
          this.#pending.delete(id);
        }
        if (!this.#shuttingDown && !this.#killed) this.#broken(new DriverFailure('DRIVER_EXITED', `the driver "${clip(this.command, 80)}" exited (${signal ?? `code ${code}`}) before it was asked to shut down${this.#stderrTail()}${this.#diagnosticsTail()}`));
        resolve();
      });
      this.#child.once('error', (err) => {
        for (const [id, p] of this.#pending) {
          clearTimeout(p.timer);
          p.reject(new DriverFailure('DRIVER_START_FAILED', `the driver "${clip(this.command, 80)}" could not be started: ${err.message}`));
          this.#pending.delete(id);
        }
      });
    });
    const lines = createInterface({ input: this.#child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => this.#onLine(line));
  }

  #stderrTail(): string {
    const tail = this.#stderr.trim().split('\n').slice(-3).join(' | ');
    return tail ? `; its stderr ends: ${clip(this.#redact(tail), 300)}` : '';
  }

  #failAll(failure: DriverFailure): void {
    this.#broken(failure);
    for (const [id, p] of this.#pending) {
      clearTimeout(p.timer);
      p.reject(failure);
      this.#pending.delete(id);
    }
    this.kill();
  }

  /**
   * One stdout line. An answer is a JSON object with an integer `id` and a boolean `ok`; any other line (a library's
   * log line, JSON or not, a banner) is a diagnostic: kept for the report, never read as a verdict.
   */
  #onLine(line: string): void {
    if (!line.trim()) return;
    const answer = parseAnswer(line);
    if (!answer) {
      this.#diagnostics.push(clip(this.#redact(line)));
      if (this.#diagnostics.length > MAX_DIAGNOSTICS) this.#diagnostics.splice(0, this.#diagnostics.length - MAX_DIAGNOSTICS);
      this.#diagnosticCount++;
      return;
    }
    const ops = [...this.#pending.values()].map((p) => p.op).join(', ') || 'no request';
    const pending = this.#pending.get(answer.id);
    if (!pending && answer.id < 1) {
      // The driver could not parse a request line (docs/driver-protocol.md): the harness never sends one, so what it
      // sent and what the driver read differ; every op in flight is in doubt.
      const error = (answer as { error?: { message?: unknown } }).error;
      const said = typeof error?.message === 'string' ? `: ${JSON.stringify(clip(this.#redact(error.message)))}` : '';
      this.#failAll(new DriverFailure('DRIVER_PROTOCOL', `the driver could not read a request line (its answer with id ${answer.id}${said}; pending: ${ops})`));
      return;
    }
    if (!pending) {
      this.#failAll(new DriverFailure('DRIVER_PROTOCOL', `the driver answered request id ${answer.id}, which was never sent or was answered already (pending: ${ops}): ${JSON.stringify(clip(this.#redact(line)))}`));
      return;
    }
    this.#pending.delete(answer.id);
    clearTimeout(pending.timer);
    if (answer.ok === true) {
      const result = (answer.result ?? {}) as Record<string, unknown>;
      const missing = resultProblem(pending.op, result);
      if (missing) {
        pending.reject(this.#broken(new DriverFailure('DRIVER_PROTOCOL', `the driver's answer to "${pending.op}" has no ${missing}: ${JSON.stringify(clip(this.#redact(line)))}`)));
        return;
      }
      pending.resolve(result);
      return;
    }
    const error = answer.error as Partial<DriverError> | undefined;
    const kind = error?.kind;
    const message = error?.message;
    if (error && typeof kind === 'string' && KINDS.includes(kind) && (typeof message === 'string' || (message === undefined && kind === 'unsupported'))) {
      pending.reject(new ClientError({ ...error, kind, message: message ?? '' } as DriverError));
    } else {
      pending.reject(this.#broken(new DriverFailure('DRIVER_PROTOCOL', `the driver's answer to "${pending.op}" is neither {"ok":true,"result":…} nor {"ok":false,"error":{"kind":"auth|transport|protocol|unsupported","message":…}}: ${JSON.stringify(clip(this.#redact(line)))}`)));
    }
  }

  /**
   * Lines the driver printed on stdout that are not answers (a library's own log lines, say), the last
   * {@link MAX_DIAGNOSTICS}, each clipped; unredacted (the caller redacts before reporting).
   */
  diagnostics(): { readonly lines: readonly string[]; readonly total: number } {
    return { lines: [...this.#diagnostics], total: this.#diagnosticCount };
  }

  /** Forgets the diagnostics seen so far (a property does this per case). */
  clearDiagnostics(): void {
    this.#diagnostics.length = 0;
    this.#diagnosticCount = 0;
  }

  #diagnosticsTail(): string {
    if (this.#diagnostics.length === 0) return '';
    const tail = this.#diagnostics.slice(-2).map((l) => JSON.stringify(clip(l, 150))).join(', ');
    return `; it printed ${this.#diagnosticCount} line(s) on stdout that are not answers, the last: ${tail} (answers are JSON objects with "id" and "ok"; logs belong on stderr)`;
  }

  request<O extends DriverOp>(request: Extract<DriverRequest, { op: O }>, timeoutMs = this.#options.opTimeoutMs): Promise<DriverResults[O]> {
    if (this.#exited) {
      return Promise.reject(new DriverFailure('DRIVER_EXITED', `the driver "${clip(this.command, 80)}" had already exited (${this.#exited.signal ?? `code ${this.#exited.code}`}) when "${request.op}" was sent${this.#stderrTail()}`));
    }
    const id = ++this.#nextId;
    return new Promise<DriverResults[O]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(this.#broken(new DriverFailure('DRIVER_TIMEOUT', `the driver did not answer "${request.op}" within ${timeoutMs} ms${this.#stderrTail()}${this.#diagnosticsTail()}`)));
        this.kill();
      }, timeoutMs);
      this.#pending.set(id, { op: request.op, resolve: resolve as (v: unknown) => void, reject, timer });
      this.#child.stdin.write(`${JSON.stringify({ id, ...request })}\n`);
    });
  }

  async configure(r: Parameters<ClientAdapter['configure']>[0]) {
    await this.request({ op: 'configure', ...r });
  }
  restCall(r: Parameters<ClientAdapter['restCall']>[0]) {
    return this.request({ op: 'rest.call', ...r });
  }
  soapCall(r: Parameters<ClientAdapter['soapCall']>[0]) {
    return this.request({ op: 'soap.call', ...r });
  }
  openSession(r: Parameters<ClientAdapter['openSession']>[0]) {
    return this.request({ op: 'soap.session.open', ...r });
  }
  sessionCall(r: Parameters<ClientAdapter['sessionCall']>[0]) {
    return this.request({ op: 'soap.session.call', ...r });
  }
  async closeSession(r: Parameters<ClientAdapter['closeSession']>[0]) {
    await this.request({ op: 'soap.session.close', ...r });
  }

  /** Asks the driver to shut down, waits for it to exit, and kills it if it does not. */
  async shutdown(): Promise<void> {
    this.#shuttingDown = true;
    try {
      // Every driver must take "shutdown" (docs/driver-protocol.md): `unsupported` is a broken driver, as for "configure".
      if (!this.#exited) {
        await this.request({ op: 'shutdown' }, this.#options.shutdownTimeoutMs).catch((err: unknown) => {
          if (err instanceof ClientError && err.kind === 'unsupported') throw this.#broken(new DriverFailure('DRIVER_PROTOCOL', `the client refused "shutdown" (error kind "unsupported"): every driver must take it`));
          throw err;
        });
      }
      this.#child.stdin.end();
      const exited = await Promise.race([this.#exit.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), this.#options.shutdownTimeoutMs).unref())]);
      if (!exited) throw new DriverFailure('DRIVER_TIMEOUT', `the driver did not exit within ${this.#options.shutdownTimeoutMs} ms after "shutdown"`);
    } finally {
      this.kill();
    }
  }

  #killed = false;

  /** Ends the process now (SIGKILL), whatever it is doing. */
  kill(): void {
    this.#killed = true;
    killGroup(this.#child);
  }

  get exited(): Promise<void> {
    return this.#exit;
  }
}
