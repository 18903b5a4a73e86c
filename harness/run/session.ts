/**
 * The conformance session: one Vitest instance that runs the suites (once, or many times for a self-test), each run
 * with its own configuration, reporter, session guard and traffic files.
 */
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import type { Reporter, Vitest } from 'vitest/node';
import { LIVE_BUDGET, liveBudget } from '../checks/budget.ts';
import { CORRELATION_HEADER, newRunId, type TraceConfig } from '../checks/trace-config.ts';
import { CODE_EXT, CODE_ROOT, suiteFileKey, TOOL_VERSION } from '../package-info.ts';
import { learnProfile } from '../profile/learn.ts';
import type { Report } from '../report/model.ts';
import { ConformanceReporter } from '../report/reporter.ts';
import { TRAFFIC_FILE } from '../report/write.ts';
import { DEFAULT_RUNS, DEFAULT_SEED, type RunConfig } from '../run-config.ts';
import { ConfigError } from '../targets/config.ts';
import { SessionGuard } from './guard.ts';
import { LIVE_DEFAULT_RUNS, type ActiveRun, type RunOptions, type RunOutcome, type Shard } from './options.ts';
import { exactTitlePattern, filesFor, replayContext, selectRules, titlePattern } from './selection.ts';
import { redactorFor, resolveTarget } from './target.ts';
import { mark } from '../timing.ts';
import { sessionSequencer, shardOf, type FileOrder } from './file-order.ts';
import { moduleCacheDir } from './module-cache.ts';
import { WorkerKeeper } from './worker-pool.ts';

/** Forwards Vitest's reporter calls to the reporter of the current run (one Vitest instance serves many runs). */
class SwitchReporter implements Reporter {
  current: ConformanceReporter | undefined;
  onTestRunStart() {
    return this.current?.onTestRunStart();
  }
  onTestCaseResult(testCase: Parameters<NonNullable<Reporter['onTestCaseResult']>>[0]) {
    return this.current?.onTestCaseResult(testCase);
  }
  /** The defects each file's simulator asked about, in the current run. */
  consulted = new Map<string, readonly string[] | 'all'>();
  /** The deliberate faults each file's clients asked about, in the current run. */
  consultedFaults = new Map<string, readonly string[] | 'all'>();
  onTestModuleEnd(testModule: Parameters<NonNullable<Reporter['onTestModuleEnd']>>[0]) {
    mark(`module-end ${testModule.moduleId.replace(/.*[\\/](suites[\\/])/, '$1')}`);
    const { tdsDefects, tdsFaults } = testModule.meta();
    // A file that ended without saying (it did not load, it was cancelled) may have asked about anything.
    this.consulted.set(suiteFileKey(testModule.moduleId), tdsDefects ?? 'all');
    this.consultedFaults.set(suiteFileKey(testModule.moduleId), tdsFaults ?? 'all');
    return this.current?.onTestModuleEnd(testModule);
  }
  /** Runs before the report is written at the end of a run (closing what the checks left open). */
  beforeEnd: (() => Promise<void>) | undefined;
  async onTestRunEnd(...args: Parameters<NonNullable<Reporter['onTestRunEnd']>>) {
    mark('tests-ended');
    await this.beforeEnd?.();
    return this.current?.onTestRunEnd(...args);
  }
}

/**
 * The compiled harness (dist/harness/…), imported natively by the test workers — but its setup files, which Vitest
 * must run again for every test file (a native import would run them once per worker).
 */
const EXTERNAL_HARNESS = /[\\/]dist[\\/]harness[\\/](?!checks[\\/]setup\.js$|fastcheck-setup\.js$)/;

/**
 * Workers of a run against the simulator: one per two CPUs. A worker runs a file's checks and its simulator, and the
 * main process needs a CPU too: on 2 CPUs one worker is faster than two (a default run
 * 6.2–6.8 s against 6.9–7.4 s, a `--runs 1` run 1.6–1.8 s against 2.2 s) and spends less CPU. A worker thread
 * (`pool: 'threads'`) in place of the process was 3 % faster (wall, median of 5 pairs) for 250 MiB in one process
 * against 170: not worth it.
 */
export function simWorkers(): number {
  return Math.max(1, Math.floor(availableParallelism() / 2));
}

/**
 * Workers of a simulator run whose client is a driver process (`--client "<command>"`): at least two. Each check
 * starts the driver and waits on it (a Node driver takes 0.1–0.2 s of CPU to start, a JVM more), so a worker mostly
 * waits, and on 2 CPUs two workers run the client suite in 3.5–4.0 s where one took 5.3–6.5 s (a published library's
 * driver, `--runs 5`, three runs each way) for the same CPU. The checks are those of a machine of 4 CPUs, where
 * {@link simWorkers} gives two anyway: every file has its own simulator and its own drivers.
 */
export function driverWorkers(): number {
  return Math.max(2, simWorkers());
}

/** How a session is opened (see {@link ConformanceSession.open}). */
export interface SessionOptions {
  /** The shard of the suites' files the session's runs run, unless a run names its own (`RunOptions.shard`). */
  readonly shard?: Shard | undefined;
  /**
   * The suites' files run in an order shuffled with this seed, unless a run names its own (`RunOptions.fileOrderSeed`);
   * Vitest's own order when neither does.
   */
  readonly fileOrderSeed?: number;
  /**
   * Keep the test worker from one run to the next (the default): false forks a worker for every run, as Vitest does
   * (the tests that prove keeping it changes no verdict).
   */
  readonly reuseWorkers?: boolean;
  /**
   * Test workers for a simulator session's runs, each running one suite file at a time ({@link simWorkers} unless
   * given): more than the CPUs suit runs that mostly wait (a simulator profile's latency). A live session has one.
   */
  readonly workers?: number;
}

/**
 * One Vitest instance that runs the conformance suites many times (a self-test runs one defect after another):
 * each run gets its own configuration, name pattern and reporter. Live targets get one worker and no isolation, so
 * that the run's budget is shared and requests are sequential.
 */
export class ConformanceSession {
  readonly #vitest: Vitest;
  readonly #switch: SwitchReporter;
  readonly #workers: WorkerKeeper;
  readonly #defaults: FileOrder;
  /** The running run's file order (its seed), which the session's sequencer reads when Vitest sorts the run's files. */
  readonly #order: { current: FileOrder };
  /** The workers a run of this session gets: the session's own count, or (a simulator session opened without one) per run. */
  readonly #runWorkers: (options: RunOptions) => number | undefined;
  private constructor(vitest: Vitest, reporter: SwitchReporter, workers: WorkerKeeper, defaults: FileOrder, order: { current: FileOrder }, runWorkers: (options: RunOptions) => number | undefined) {
    this.#vitest = vitest;
    this.#switch = reporter;
    this.#workers = workers;
    this.#defaults = defaults;
    this.#order = order;
    this.#runWorkers = runWorkers;
  }

  /** How the session's test workers were had: forked, taken ready (started ahead), kept from an earlier run. */
  get workerStats(): { readonly forked: number; readonly spares: number; readonly reused: number } {
    return { ...this.#workers.stats };
  }

  /** Opens a session: Vitest loaded, its first test worker started. */
  static async open(kind: 'sim' | 'live' = 'sim', options: SessionOptions = {}): Promise<ConformanceSession> {
    const { workers: wanted } = options;
    if (wanted !== undefined && !(Number.isInteger(wanted) && wanted >= 1)) {
      throw new ConfigError('CONFIG_INVALID', `a session's "workers" must be a whole number of 1 or more, not ${String(wanted)}.`);
    }
    const reporter = new SwitchReporter();
    const signals = ['SIGINT', 'SIGTERM'] as const;
    const before = new Map(signals.map((s) => [s, new Set(process.listeners(s))]));
    // Loaded when a run starts, not at the top: the CLI checks its input (and answers a bad one, or `--help`) before
    // paying for Vitest.
    mark('session-open');
    // The first test worker starts now, beside Vitest's loading (or was started by the CLI); a session of many runs
    // keeps its workers from one run to the next (harness/run/worker-pool.ts).
    const workers = new WorkerKeeper({ reuse: options.reuseWorkers ?? true });
    workers.prespawn();
    const defaults: FileOrder = { shard: options.shard, seed: options.fileOrderSeed };
    const order = { current: defaults };
    let vitest: Vitest;
    try {
      const { BaseSequencer, createVitest } = await import('vitest/node');
      const cacheDir = moduleCacheDir(CODE_ROOT);
      vitest = await createVitest(
        'test',
        {
          // The `conformance` project of vitest.config.ts, given inline: no config file to bundle at start-up, and the
          // same settings whether the suites run from the sources (.ts) or compiled (dist/, .js).
          root: CODE_ROOT,
          config: false,
          name: 'conformance',
          include: [`suites/**/*.test${CODE_EXT}`],
          setupFiles: [`./harness/fastcheck-setup${CODE_EXT}`, `./harness/checks/setup${CODE_EXT}`],
          // A live target may be slow or throttle (each request may wait --throttle-wait, 60 s by default, and a check
          // makes many): its checks get ten minutes; the simulator's 30 s. A check out of time is an error, never a fail.
          testTimeout: kind === 'live' ? 600_000 : 30_000,
          hookTimeout: kind === 'live' ? 600_000 : 30_000,
          watch: false,
          reporters: [reporter],
          passWithNoTests: true,
          pool: workers.pool(),
        // What Vite transformed for the workers (the test files, the setup files; with the sources, every module) is
        // kept on disk for the next runs and processes (harness/run/module-cache.ts).
        ...(cacheDir !== undefined && { experimental: { fsModuleCache: true, fsModuleCachePath: cacheDir } }),
          // Test files share worker processes (isolate: false): each file still gets its own simulator, and the
          // harness modules load once per worker instead of once per file. Live runs: one worker, one file at a time.
          isolate: false,
          ...(kind === 'live' ? { maxWorkers: 1, fileParallelism: false } : { maxWorkers: wanted ?? simWorkers() }),
          // A run's shard and file order are the run's (harness/run/file-order.ts), not the instance's: one session
          // serves runs of different shards and orders, with the same worker.
          sequence: { sequencer: sessionSequencer(BaseSequencer, () => order.current) },
          // Compiled, the harness's modules are plain ES modules: Node imports them as they are (as it does the packages
          // of node_modules), instead of Vite transforming each one in every worker. The test files stay Vitest's.
          ...(CODE_EXT === '.js' && { server: { deps: { external: [EXTERNAL_HARNESS] } } }),
        },
        {},
        {},
      );
      await vitest.standalone();
    } catch (err) {
      await workers.close();
      throw err;
    }
    mark('vitest-ready');
    // Vitest's logger exits the process on SIGINT/SIGTERM; the harness handles those itself (closing sessions and
    // writing the report first), so the listeners Vitest added are taken off again.
    for (const s of signals) for (const l of process.listeners(s)) if (!before.get(s)?.has(l)) process.off(s, l);
    // A simulator session opened without a count gives a run with a driver-process client more workers (driverWorkers).
    const runWorkers = (run: RunOptions): number | undefined =>
      kind === 'live' || wanted !== undefined ? undefined : run.client?.kind === 'command' ? driverWorkers() : simWorkers();
    return new ConformanceSession(vitest, reporter, workers, defaults, order, runWorkers);
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
    const shard = options.shard ?? this.#defaults.shard;
    const runs = options.runs ?? (options.target === 'sim' ? DEFAULT_RUNS : LIVE_DEFAULT_RUNS);
    const { spec, config, accounts } = resolveTarget(options.target, options.defects, options.profile, options.fileProfiles);
    const redactor = redactorFor(spec, seed, accounts);
    const allowOptIn = options.allowOptIn ?? config?.allowOptIn ?? false;
    // A live target's budget is sized from its config (its pool, with opt-in rules): the run's workers get the same.
    const budget = config ? { ...liveBudget(config, allowOptIn), ...options.budget } : options.budget ? { ...LIVE_BUDGET, ...options.budget } : undefined;
    const harFiles = [...(options.har !== undefined ? [options.har] : []), ...(options.reportHar ? [join(options.outDir, TRAFFIC_FILE)] : [])];
    const { trafficDir } = harFiles.length > 0 ? await import('../har/run-traffic.ts') : { trafficDir: undefined };
    const trace: TraceConfig = {
      runId: newRunId(),
      header: options.correlationHeader ?? config?.correlationHeader ?? CORRELATION_HEADER,
      ...(trafficDir && { harDir: await trafficDir() }),
    };
    const guard = config && budget ? await SessionGuard.start(config, budget, redactor, trace) : undefined;
    const run: RunConfig = {
      target: spec,
      seed,
      runs,
      allowOptIn,
      replay: options.replay?.path !== undefined ? { check: options.replay.check, path: options.replay.path } : undefined,
      requestTimeoutMs: options.requestTimeoutMs ?? config?.requestTimeoutMs ?? (spec.kind === 'sim' ? 5_000 : 15_000),
      ...(options.throttleWaitMs !== undefined && { throttleWaitMs: options.throttleWaitMs }),
      ...(options.client && { client: options.client }),
      ...(options.clientTimeoutMs !== undefined && { clientTimeoutMs: options.clientTimeoutMs }),
      ...(budget && { budget }),
      ...(guard && { registry: guard.endpoint }),
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
      correlation: { runId: trace.runId, header: trace.header === false ? null : trace.header, ...(harFiles.length > 0 && { har: harFiles.map((f) => relative(options.outDir, f)) }) },
      ...(options.requireChecked && { requireChecked: true }),
      ...(shard && { shard }),
      // A live run learns the target's profile (harness/profile): the facts its workers saw, and its verdicts.
      ...(guard && {
        profile: (report: Report) => learnProfile(guard.registry.facts(), {
          target: targetInfo.name, tool: TOOL_VERSION, report, sessionPoolSize: config?.sessionPoolSize, sessionTimeoutSeconds: config?.sessionTimeoutSeconds,
          accountValues: accounts.flatMap((a) => [a.epr, a.pcc]),
        }),
      }),
    });
    /** Joins the workers' traffic into the HAR file(s), once (the end of the run, or of an interrupted one). */
    let harWritten: Promise<void> | undefined;
    const writeHar = () => {
      const dir = trace.harDir;
      if (dir === undefined) return Promise.resolve();
      harWritten ??= (async () => {
        const { collectRunHar, removeTrafficDir, writeRunHar } = await import('../har/run-traffic.ts');
        const { flushTraffic } = await import('../checks/trace.ts');
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
    // The pattern goes with each test file the run asks for, not into Vitest's configuration: the configuration a
    // worker is started with stays the same from run to run, so that the next run can keep the worker.
    this.#vitest.resetGlobalTestNamePattern();
    this.#switch.current = reporter;
    const consulted = (this.#switch.consulted = new Map());
    const consultedFaults = (this.#switch.consultedFaults = new Map());
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
        const only = options.files && new Set(options.files);
        const files = filesFor(selection, suite).filter((f) => !only || only.has(suiteFileKey(f)));
        const found = files.length ? await this.#vitest.getRelevantTestSpecifications(files) : [];
        // The run's shard of the files it needs (the same partition as Vitest's --shard), then its order (the
        // session's sequencer reads the seed when Vitest sorts them).
        const mine = shard ? shardOf(found, shard, this.#vitest.config.root, (s) => s.moduleId) : found;
        const specs = pattern ? mine.map((s) => s.project.createSpecification(s.moduleId, { testNamePattern: new RegExp(pattern) }, s.pool)) : mine;
        mark('run-start');
        this.#order.current = { seed: options.fileOrderSeed ?? this.#defaults.seed };
        // The run's workers: Vitest reads them from the project when it schedules the run's files.
        const workers = this.#runWorkers(options);
        if (workers !== undefined) for (const project of this.#vitest.projects) project.config.maxWorkers = workers;
        if (specs.length) await this.#vitest.runTestSpecifications(specs, true);
        else {
          reporter.onTestRunStart();
          await reporter.onTestRunEnd([], [], 'passed');
        }
        mark('run-end');
      } finally {
        this.#switch.current = undefined;
        this.#switch.beforeEnd = undefined;
        process.exitCode = previousExitCode;
        // An interrupted run keeps its registry until `finish`: workers still register creates that were in flight.
        if (!interrupted) await guard?.dispose();
      }
      const report = await reporter.result();
      return { report, exitCode: report.exitCode, consultedDefects: consulted, consultedFaults };
    })();
    outcome.catch(() => undefined); // the caller awaits it; an interrupted run may never look
    const vitest = this.#vitest;
    return {
      outcome,
      sessions: () => guard?.counts(),
      requestTimeoutMs: run.requestTimeoutMs,
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
    await this.#workers.close();
    await this.#vitest.close();
    mark('session-closed');
  }
}

/**
 * Runs the conformance suites through Vitest's Node API with the conformance reporter, and returns the report.
 * `npx vitest --project conformance` runs the same tests with the default configuration.
 */
export async function runConformance(options: RunOptions): Promise<RunOutcome> {
  const session = await ConformanceSession.open(options.target === 'sim' ? 'sim' : 'live');
  try {
    return await session.run(options);
  } finally {
    await session.close();
  }
}

