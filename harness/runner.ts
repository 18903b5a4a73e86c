import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Reporter, Vitest } from 'vitest/node';
import { LIVE_BUDGET, type Budget } from './checks/budget.ts';
import type { ClientSpec } from './clients/load.ts';
import { indexSuiteTests } from './docs/test-index.ts';
import type { Report } from './report/model.ts';
import { Redactor } from './report/redact.ts';
import { ConformanceReporter } from './report/reporter.ts';
import { SessionRegistry, type CloseSummary, type SessionCounts } from './registry/registry.ts';
import { serveRegistry, type RegistryServer } from './registry/server.ts';
import type { Baseline } from './report/baseline.ts';
import type { ReplayTarget } from './report/replay.ts';
import { DEFAULT_RUNS, DEFAULT_SEED, type RunConfig, type TargetSpec } from './run-config.ts';
import type { LatitudeProfile } from './sim/latitude.ts';
import type { ValidatorService } from './soap/validator.ts';
import { defaultAccounts } from './sim/default-accounts.ts';
import { parseDefects } from './sim/defects.ts';
import { rules, type RuleId, type Side } from './catalog/index.ts';
import { ConfigError, resolveAccount, type TargetConfig } from './targets/config.ts';
import type { Account } from './targets/types.ts';
import type { Transport } from './targets/transport.ts';
import { targetConfigFor } from './targets/presets.ts';
import { CORRELATION_HEADER, newRunId, type TraceConfig } from './checks/trace.ts';
import { TRAFFIC_FILE } from './report/write.ts';
import { CODE_EXT, CODE_ROOT, TOOL_VERSION } from './package-info.ts';

export type SuiteName = 'service' | 'client' | 'all';

export interface RunOptions {
  /** `sim`, a preset name (`cert`), or the path of a target config file. */
  readonly target: string;
  readonly suite?: SuiteName;
  /** Selected rule IDs; all rules of the suite when left out. */
  readonly only?: readonly RuleId[];
  readonly outDir: string;
  readonly seed?: number;
  readonly runs?: number;
  readonly allowOptIn?: boolean;
  /** Simulator defects to switch on (self-tests; `--target sim` only). */
  readonly defects?: readonly string[];
  /** The conforming variant of the simulator (`--target sim` only; the latitude property varies it). */
  readonly profile?: LatitudeProfile;
  /** A conforming variant per suite file, by its path from the project root (`--target sim` only; the latitude property). */
  readonly fileProfiles?: Readonly<Record<string, LatitudeProfile>>;
  /**
   * Re-run just this check (its full title): a property at the recorded path, or a check without generated inputs
   * as it is (`--replay`).
   */
  readonly replay?: ReplayTarget;
  readonly requestTimeoutMs?: number;
  readonly quiet?: boolean;
  readonly log?: (line: string) => void;
  /** Write report files (default true). */
  readonly write?: boolean;
  /**
   * A known-failures baseline (`--baseline`): listed failures do not fail the run, listed failures that pass do.
   * With `update`, the run's own failures replace it (`--update-baseline`; the caller writes the file).
   */
  readonly baseline?: { readonly file: string; readonly baseline: Baseline; readonly update?: boolean };
  /** The client under test of the client suite (`--client`, `--client-module`); the reference client by default. */
  readonly client?: ClientSpec;
  /** Time limit of one op of the client under test (`--client-timeout`). */
  readonly clientTimeoutMs?: number;
  /** Limits of a live run (`--max-tokens`, `--max-sessions`); defaults in `LIVE_BUDGET`. */
  readonly budget?: Partial<Budget>;
  /**
   * The correlation header's name, or `false` to send none (`--correlation-header`, `--no-correlation-header`); the
   * target config's `correlationHeader`, else `X-Conformance-Check`, when left out.
   */
  readonly correlationHeader?: string | false;
  /** Write every exchange of the run to this HAR 1.2 file (`--har`). */
  readonly har?: string;
  /** Write every exchange of the run to `traffic.har` beside the reports (`--report-har`). */
  readonly reportHar?: boolean;
  /**
   * The certification gate (`--require-checked`, or the baseline's `requireChecked`): a selected rule that ends
   * `skipped`, `not-applicable` or `partial` fails the run, unless the baseline lists it as an expected skip.
   */
  readonly requireChecked?: boolean;
  /** Run only this shard of the suites' files (`--shard i/n`, Vitest's sharding); `tds-conformance merge` joins them. */
  readonly shard?: Shard;
}

/** Shard `index` (1-based) of `count`. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** Generated cases per property against a live target, unless `--runs` says otherwise: a careful guest. */
export const LIVE_DEFAULT_RUNS = 5;

export interface RunOutcome {
  readonly report: Report;
  readonly exitCode: number;
}

/** A run in progress (see {@link ConformanceSession.start}). */
export interface ActiveRun {
  /** The run's report, once every check finished (or the cancelled run ended) and the report was written. */
  readonly outcome: Promise<RunOutcome>;
  /** The session counts of a live run's registry; `undefined` for the simulator. */
  sessions(): SessionCounts | undefined;
  /**
   * Stops the run: no token or session is created any more, every report is marked `interrupted`, the tests are
   * cancelled, and every session still open is closed by this process (one attempt each, within `timeoutMs`).
   */
  interrupt(timeoutMs: number): Promise<CloseSummary | undefined>;
  /** One more close attempt for every session still open (a second Ctrl-C). */
  closeAgain(timeoutMs: number): Promise<CloseSummary | undefined>;
  /**
   * After an interruption: waits (at most `timeoutMs`) for closes still in flight, then writes the report of what ran,
   * marked `interrupted`, with a run error for any session left open.
   */
  finish(timeoutMs: number): Promise<Report>;
}

/**
 * The session registry of a live run, served to the workers on loopback, and the transport this process closes
 * sessions with.
 */
class SessionGuard {
  readonly registry: SessionRegistry;
  readonly #server: RegistryServer;
  readonly #transport: Transport;
  #disposed: Promise<void> | undefined;
  #reported = false;

  private constructor(registry: SessionRegistry, server: RegistryServer, transport: Transport) {
    this.registry = registry;
    this.#server = server;
    this.#transport = transport;
  }

  static async start(config: TargetConfig, budget: Budget, redactor: Redactor, trace: TraceConfig): Promise<SessionGuard> {
    // Loaded when a live run starts (undici, the SOAP builder), not for every command line.
    const { createTransport } = await import('./targets/transport.ts');
    const { soapSessionCloser } = await import('./registry/soap-closer.ts');
    const { setFileScope, tracingTransport } = await import('./checks/trace.ts');
    // The closes of this process carry the correlation header too, as the run's own ("end of run").
    setFileScope('end of run');
    const transport = tracingTransport(createTransport({
      timeoutMs: LEFTOVER_CLOSE_MS,
      useEnvProxy: true,
      ...(config.caFile && { ca: readFileSync(config.caFile, 'utf8') }),
    }), trace);
    // Session tokens are secrets: whatever this process writes masks them.
    const registry = new SessionRegistry(budget, soapSessionCloser(config.environments, transport), (s) => redactor.add(s.token));
    return new SessionGuard(registry, await serveRegistry(registry), transport);
  }

  get endpoint() {
    return this.#server.endpoint;
  }

  counts(): SessionCounts {
    return this.registry.counts();
  }

  resources() {
    const c = this.registry.counts();
    return { sessionsOpened: c.sessionsOpened, sessionsClosed: c.sessionsClosed };
  }

  async closeLeftovers(reporter: ConformanceReporter): Promise<void> {
    if (this.registry.stopped) return; // an interrupted run: its closes are under way
    if (this.registry.openSessions().length > 0) await this.registry.closeAll(LEFTOVER_CLOSE_MS);
    this.reportLeftOpen(reporter);
  }

  /** Adds a run error naming how many sessions stayed open, if any did (once). */
  reportLeftOpen(reporter: ConformanceReporter): void {
    const open = this.registry.openSessions().length;
    if (open === 0 || this.#reported) return;
    this.#reported = true;
    reporter.addRunError({
      code: 'SESSIONS_LEFT_OPEN',
      message: `${open} session${open === 1 ? '' : 's'} the run opened could not be closed (SessionCloseRQ got no answer in time): `
        + 'they stay in the account\'s session pool until the service times them out',
    });
  }

  dispose(): Promise<void> {
    // A close that never got an answer is not waited for (the transport would wait for it until its time limit).
    const transportClosed = Promise.race([this.#transport.close(), new Promise((resolve) => setTimeout(resolve, 200).unref())]);
    this.#disposed ??= Promise.all([this.#server.close(), transportClosed]).then(() => undefined);
    return this.#disposed;
  }
}

/** Time limit of a close of a session the checks left open, at the end of a run. */
const LEFTOVER_CLOSE_MS = 5_000;

const SUITE_SIDES: Record<SuiteName, readonly Side[]> = { service: ['service'], client: ['client'], all: ['service', 'client'] };

/** The rules a run selects: those of the suite's side(s), narrowed by `--only`. */
export function selectRules(suite: SuiteName, only?: readonly RuleId[]): RuleId[] {
  const sides = SUITE_SIDES[suite];
  return rules.filter((r) => sides.includes(r.side) && (!only || only.includes(r.id))).map((r) => r.id);
}

/** A Vitest test-name pattern that matches the tests naming any of `ids` in their title's ID prefix. */
export function titlePattern(ids: readonly RuleId[]): string {
  return `^(?:[A-Z]+-\\d\\d, )*(?:${ids.join('|')})(?:, [A-Z]+-\\d\\d)*: `;
}

/** A Vitest test-name pattern that matches exactly the test with this full title. */
export function exactTitlePattern(title: string): string {
  return `^${title.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`;
}

/**
 * The arguments that make a replay command run in the same context as this run: `--target` (unless the simulator),
 * `--suite` (unless `service`), each `--defect`, `--allow-opt-in`, and `--runs` and `--timeout` when given.
 */
export function replayContext(options: Pick<RunOptions, 'target' | 'suite' | 'defects' | 'allowOptIn' | 'runs' | 'requestTimeoutMs' | 'client'>): string[] {
  return [
    ...(options.client?.kind === 'command' ? ['--client', options.client.command] : []),
    ...(options.client?.kind === 'module' ? ['--client-module', options.client.path] : []),
    ...(options.target !== 'sim' ? ['--target', options.target] : []),
    ...(options.suite !== undefined && options.suite !== 'service' ? ['--suite', options.suite] : []),
    ...(options.defects ?? []).flatMap((d) => ['--defect', d]),
    ...(options.allowOptIn ? ['--allow-opt-in'] : []),
    ...(options.runs !== undefined ? ['--runs', String(options.runs)] : []),
    ...(options.requestTimeoutMs !== undefined ? ['--timeout', String(options.requestTimeoutMs)] : []),
  ];
}

/** Loads and checks what `--target` names, before any test starts. Throws {@link ConfigError}. */
export function resolveTarget(
  target: string,
  defects: readonly string[] = [],
  profile?: LatitudeProfile,
  fileProfiles?: Readonly<Record<string, LatitudeProfile>>,
): { spec: TargetSpec; config?: TargetConfig; accounts: Account[] } {
  if (target === 'sim') {
    parseDefects(defects);
    return { spec: { kind: 'sim', defects, ...(profile && { profile }), ...(fileProfiles && { fileProfiles }) }, accounts: [] };
  }
  if (defects.length) throw new ConfigError('CONFIG_INVALID', `--defect only applies to --target sim (the built-in simulator), not to ${target}.`);
  const config = targetConfigFor(target);
  // Resolve secrets now, so a missing variable is reported before the run starts.
  const accounts = Object.values(config.accounts).flatMap((a) => (a ? [resolveAccount(a)] : []));
  return { spec: { kind: 'live', config }, config, accounts };
}

/** Secrets the main process knows of, registered so that nothing it writes can show them. */
function redactorFor(spec: TargetSpec, seed: number, accounts: readonly Account[]): Redactor {
  const redactor = new Redactor();
  if (spec.kind === 'sim') {
    const d = defaultAccounts(seed);
    for (const a of [...d.accounts.cert, ...d.accounts.prod]) redactor.add(a.password);
  }
  for (const a of accounts) redactor.add(a.password);
  return redactor;
}

/** Forwards Vitest's reporter calls to the reporter of the current run (one Vitest instance serves many runs). */
class SwitchReporter implements Reporter {
  current: ConformanceReporter | undefined;
  onTestRunStart() {
    return this.current?.onTestRunStart();
  }
  onTestCaseResult(testCase: Parameters<NonNullable<Reporter['onTestCaseResult']>>[0]) {
    return this.current?.onTestCaseResult(testCase);
  }
  onTestModuleEnd(testModule: Parameters<NonNullable<Reporter['onTestModuleEnd']>>[0]) {
    return this.current?.onTestModuleEnd(testModule);
  }
  /** Runs before the report is written at the end of a run (closing what the checks left open). */
  beforeEnd: (() => Promise<void>) | undefined;
  async onTestRunEnd(...args: Parameters<NonNullable<Reporter['onTestRunEnd']>>) {
    await this.beforeEnd?.();
    return this.current?.onTestRunEnd(...args);
  }
}

/** Test files that tag any of `ids` (read from the suites' source), so that a run loads only what it needs. */
export function filesFor(ids: readonly RuleId[], suite: SuiteName): string[] {
  const wanted = new Set<string>(ids);
  const dirs = suite === 'all' ? ['suites/'] : [`suites/${suite}/`];
  const files = new Set(indexSuiteTests(CODE_ROOT).filter((t) => t.ids.some((id) => wanted.has(id)) && dirs.some((d) => t.file.startsWith(d))).map((t) => t.file));
  return [...files].map((f) => join(CODE_ROOT, f));
}

/**
 * Workers of a run against the simulator: one per two CPUs. A worker runs a file's checks and its simulator, and the
 * main process and the schema validator's JVM need a CPU too: on 2 CPUs one worker is faster than two (a default run
 * 6.2–6.8 s against 6.9–7.4 s, a `--runs 1` run 1.6–1.8 s against 2.2 s) and spends less CPU.
 */
function simWorkers(): number {
  return Math.max(1, Math.floor(availableParallelism() / 2));
}

/**
 * One Vitest instance that runs the conformance suites many times (a self-test runs one defect after another):
 * each run gets its own configuration, name pattern and reporter. Live targets get one worker and no isolation, so
 * that the run's budget is shared and requests are sequential.
 */
export class ConformanceSession {
  readonly #vitest: Vitest;
  readonly #switch: SwitchReporter;
  readonly #validator: Promise<ValidatorService | undefined>;
  private constructor(vitest: Vitest, reporter: SwitchReporter, validator: Promise<ValidatorService | undefined>) {
    this.#vitest = vitest;
    this.#switch = reporter;
    this.#validator = validator;
  }

  static async open(kind: 'sim' | 'live' = 'sim', options: { readonly shard?: Shard | undefined } = {}): Promise<ConformanceSession> {
    const reporter = new SwitchReporter();
    const signals = ['SIGINT', 'SIGTERM'] as const;
    const before = new Map(signals.map((s) => [s, new Set(process.listeners(s))]));
    // One schema validator JVM for every run of the session, started while Vitest starts: the workers connect to it
    // instead of starting one each (and its JIT warms up once). Without Java, the workers report that themselves.
    const validator = import('./soap/validator.ts').then((m) => m.startValidatorService()).catch(() => undefined);
    // Loaded when a run starts, not at the top: the CLI checks its input (and answers a bad one, or `--help`) before
    // paying for Vitest.
    const { createVitest } = await import('vitest/node');
    const vitest = await createVitest(
      'test',
      {
        // The `conformance` project of vitest.config.ts, given inline: no config file to bundle at start-up, and the
        // same settings whether the suites run from the sources (.ts) or compiled (dist/, .js).
        root: CODE_ROOT,
        config: false,
        name: 'conformance',
        include: [`suites/**/*.test${CODE_EXT}`],
        setupFiles: [`./harness/fastcheck-setup${CODE_EXT}`, `./harness/checks/setup${CODE_EXT}`],
        testTimeout: 30_000,
        hookTimeout: 30_000,
        watch: false,
        reporters: [reporter],
        passWithNoTests: true,
        // Test files share worker processes (isolate: false): each file still gets its own simulator, and the
        // harness modules load once per worker instead of once per file. Live runs: one worker, one file at a time.
        isolate: false,
        ...(kind === 'live' ? { maxWorkers: 1, fileParallelism: false } : { maxWorkers: simWorkers() }),
        ...(options.shard && { shard: `${options.shard.index}/${options.shard.count}` }),
      },
      {},
      {},
    );
    await vitest.standalone();
    // Vitest's logger exits the process on SIGINT/SIGTERM; the harness handles those itself (closing sessions and
    // writing the report first), so the listeners Vitest added are taken off again.
    for (const s of signals) for (const l of process.listeners(s)) if (!before.get(s)?.has(l)) process.off(s, l);
    return new ConformanceSession(vitest, reporter, validator);
  }

  async run(options: RunOptions): Promise<RunOutcome> {
    return (await this.start(options)).outcome;
  }

  /**
   * Starts a run and returns at once: its outcome, and how to stop it. A live run gets a session registry in this
   * process (see {@link ActiveRun}).
   */
  async start(options: RunOptions): Promise<ActiveRun> {
    const suite = options.suite ?? 'service';
    const seed = options.seed ?? DEFAULT_SEED;
    const runs = options.runs ?? (options.target === 'sim' ? DEFAULT_RUNS : LIVE_DEFAULT_RUNS);
    const { spec, config, accounts } = resolveTarget(options.target, options.defects, options.profile, options.fileProfiles);
    const redactor = redactorFor(spec, seed, accounts);
    const budget = options.budget ? { ...LIVE_BUDGET, ...options.budget } : undefined;
    const harFiles = [...(options.har !== undefined ? [options.har] : []), ...(options.reportHar ? [join(options.outDir, TRAFFIC_FILE)] : [])];
    const { trafficDir } = harFiles.length > 0 ? await import('./har/run-traffic.ts') : { trafficDir: undefined };
    const trace: TraceConfig = {
      runId: newRunId(),
      header: options.correlationHeader ?? config?.correlationHeader ?? CORRELATION_HEADER,
      ...(trafficDir && { harDir: await trafficDir() }),
    };
    const guard = config ? await SessionGuard.start(config, budget ?? LIVE_BUDGET, redactor, trace) : undefined;
    const run: RunConfig = {
      target: spec,
      seed,
      runs,
      allowOptIn: options.allowOptIn ?? config?.allowOptIn ?? false,
      replay: options.replay?.path !== undefined ? { check: options.replay.check, path: options.replay.path } : undefined,
      requestTimeoutMs: options.requestTimeoutMs ?? config?.requestTimeoutMs ?? (spec.kind === 'sim' ? 5_000 : 15_000),
      ...(options.client && { client: options.client }),
      ...(options.clientTimeoutMs !== undefined && { clientTimeoutMs: options.clientTimeoutMs }),
      ...(budget && { budget }),
      ...(guard && { registry: guard.endpoint }),
      validatorPort: (await this.#validator)?.port,
      trace,
    };
    const selection = selectRules(suite, options.only);
    const targetInfo = { name: config?.name ?? (spec.kind === 'sim' ? 'simulator' : options.target), kind: spec.kind } as const;
    const reporter = new ConformanceReporter({
      outDir: options.outDir,
      target: targetInfo,
      seed,
      runs,
      selection,
      toolVersion: TOOL_VERSION,
      redactor,
      quiet: options.quiet ?? false,
      write: options.write ?? true,
      ...(options.log && { log: options.log }),
      replayContext: replayContext(options),
      ...(options.baseline && { baseline: options.baseline }),
      ...(guard && { resources: () => guard.resources() }),
      correlation: { runId: trace.runId, header: trace.header === false ? null : trace.header, ...(harFiles.length > 0 && { har: harFiles }) },
      ...(options.requireChecked && { requireChecked: true }),
    });
    /** Joins the workers' traffic into the HAR file(s), once (the end of the run, or of an interrupted one). */
    let harWritten: Promise<void> | undefined;
    const writeHar = () => {
      const dir = trace.harDir;
      if (dir === undefined) return Promise.resolve();
      harWritten ??= (async () => {
        const { collectRunHar, removeTrafficDir, writeRunHar } = await import('./har/run-traffic.ts');
        const { flushTraffic } = await import('./checks/trace.ts');
        flushTraffic();
        try {
          const har = await collectRunHar(dir, { runId: trace.runId, creator: { name: 'tds-auth-conformance', version: TOOL_VERSION } });
          await writeRunHar(har, harFiles, redactor);
        } catch (err) {
          reporter.addRunError({ code: (err as { code?: string }).code ?? 'HAR_WRITE_FAILED', message: (err as Error).message });
        } finally {
          await removeTrafficDir(dir);
        }
      })();
      return harWritten;
    };
    this.#vitest.provide('tdsRun', run);
    const pattern = options.replay ? exactTitlePattern(options.replay.check) : options.only && selection.length > 0 ? titlePattern(selection) : undefined;
    if (pattern) this.#vitest.setGlobalTestNamePattern(new RegExp(pattern));
    else this.#vitest.resetGlobalTestNamePattern();
    this.#switch.current = reporter;
    // What the checks left open (a worker that ended, a close that got no answer) is closed before the report, and
    // the run's traffic is written (a failure to write it is a run error of the report).
    this.#switch.beforeEnd = async () => {
      if (guard) await guard.closeLeftovers(reporter);
      await writeHar();
    };
    reporter.onInit();
    const previousExitCode = process.exitCode;
    let interrupted = false;
    const outcome = (async (): Promise<RunOutcome> => {
      try {
        const files = filesFor(selection, suite);
        const specs = files.length ? await this.#vitest.getRelevantTestSpecifications(files) : [];
        if (specs.length) await this.#vitest.runTestSpecifications(specs, true);
        else {
          reporter.onTestRunStart();
          await reporter.onTestRunEnd([], [], 'passed');
        }
      } finally {
        this.#switch.current = undefined;
        this.#switch.beforeEnd = undefined;
        process.exitCode = previousExitCode;
        // An interrupted run keeps its registry until `finish`: workers still register creates that were in flight.
        if (!interrupted) await guard?.dispose();
      }
      const report = await reporter.result();
      return { report, exitCode: report.exitCode };
    })();
    outcome.catch(() => undefined); // the caller awaits it; an interrupted run may never look
    const vitest = this.#vitest;
    return {
      outcome,
      sessions: () => guard?.counts(),
      async interrupt(timeoutMs) {
        interrupted = true;
        reporter.interrupt();
        guard?.registry.stop(timeoutMs);
        const cancelled = vitest.cancelCurrentRun('keyboard-input').catch(() => undefined);
        const summary = await guard?.registry.closeAll(timeoutMs);
        void cancelled;
        return summary;
      },
      async closeAgain(timeoutMs) {
        return guard?.registry.closeAll(timeoutMs);
      },
      async finish(timeoutMs) {
        await guard?.registry.settled(timeoutMs);
        guard?.reportLeftOpen(reporter);
        await writeHar();
        try {
          return await reporter.flush();
        } finally {
          await guard?.dispose();
        }
      },
    };
  }

  /** Stops the run in progress (Ctrl-C); the reporter still writes what it has. */
  async cancel(): Promise<void> {
    await this.#vitest.cancelCurrentRun('keyboard-input');
  }

  async close(): Promise<void> {
    await this.#vitest.close();
    await (await this.#validator)?.close();
  }
}

/**
 * Runs the conformance suites through Vitest's Node API with the conformance reporter, and returns the report.
 * `npx vitest --project conformance` runs the same tests with the default configuration.
 */
export async function runConformance(options: RunOptions): Promise<RunOutcome> {
  const session = await ConformanceSession.open(options.target === 'sim' ? 'sim' : 'live', { shard: options.shard });
  try {
    return await session.run(options);
  } finally {
    await session.close();
  }
}
