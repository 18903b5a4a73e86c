/**
 * What a conformance run is asked to do (`RunOptions`) and what it gives back: the types every way into a run
 * shares (the CLI, `runConformance`, the self-test).
 */
import type { Budget } from '../checks/budget.ts';
import type { ClientSpec } from '../clients/load.ts';
import type { RuleId } from '../catalog/index.ts';
import type { Baseline } from '../report/baseline.ts';
import type { Report, ShardPart } from '../report/model.ts';
import type { ReplayTarget } from '../report/replay.ts';
import type { CloseSummary, SessionCounts } from '../registry/registry.ts';
import type { LatitudeProfile } from '../sim/latitude.ts';

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
  /** Longest a request may wait out throttles before its check ends `error` (`--throttle-wait`, in ms here). */
  readonly throttleWaitMs?: number;
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
  /**
   * Run the suites' files in an order shuffled with this seed (Vitest's order when left out): the order decides no
   * verdict, and a test proves it. A session's runs may each have their own.
   */
  readonly fileOrderSeed?: number;
  /**
   * Run only these suite files (by their path from the project root, `suites/service/sessions.test.ts`) of those the
   * selection needs: the self-test runs the files a subject's defects can change.
   */
  readonly files?: readonly string[];
}

/** Shard `index` (1-based) of `count`. */
export type Shard = ShardPart;

/** Generated cases per property against a live target, unless `--runs` says otherwise: a careful guest. */
export const LIVE_DEFAULT_RUNS = 5;

export interface RunOutcome {
  readonly report: Report;
  readonly exitCode: number;
  /**
   * Against the simulator: per suite file that ran (by its path from the project root), the defects its simulator
   * asked about (`all`: it read them otherwise). A file's verdicts would be the same with any other defect switched on.
   */
  readonly consultedDefects: ReadonlyMap<string, readonly string[] | 'all'>;
  /**
   * Per client suite file that ran, the deliberate faults its checks' clients asked about (`all`: a client could not
   * say: a driver, a module without `deliberateFaults`). A file's verdicts would be the same with any other fault of
   * the reference client switched on.
   */
  readonly consultedFaults: ReadonlyMap<string, readonly string[] | 'all'>;
}

/** A run in progress (see {@link ConformanceSession.start}). */
export interface ActiveRun {
  /** The run's report, once every check finished (or the cancelled run ended) and the report was written. */
  readonly outcome: Promise<RunOutcome>;
  /** The session counts of a live run's registry; `undefined` for the simulator. */
  sessions(): SessionCounts | undefined;
  /** The run's time limit of one request (`--timeout`, the target config's, or the default), in ms. */
  readonly requestTimeoutMs: number;
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
