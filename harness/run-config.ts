import type { Budget } from './checks/budget.ts';
import type { ClientSpec } from './clients/load.ts';
import type { TargetConfig } from './targets/config.ts';
import type { LatitudeProfile } from './sim/latitude.ts';
import type { RegistryEndpoint } from './registry/index.ts';
import type { TraceConfig } from './checks/trace.ts';

/**
 * The configuration of one conformance run, as the CLI hands it to the test workers (Vitest `provide`).
 * Serializable: no functions, no secrets (a live target's secrets are read in the worker from its config file and
 * the environment).
 */
export type TargetSpec =
  | {
      readonly kind: 'sim';
      /** Simulator defects to switch on (self-tests); see `harness/sim/defects.ts`. */
      readonly defects: readonly string[];
      /** The conforming variant of the simulator; `DEFAULT_PROFILE` (the public service's answers) when left out. */
      readonly profile?: LatitudeProfile;
      /**
       * A variant per test file (each file has a simulator of its own), by the file's path from the project root
       * with a `.ts` extension (`suites/service/sessions.test.ts`); `profile` for the files it does not name. The
       * latitude property gives every file its own random profile, so that one run of the suite checks many.
       */
      readonly fileProfiles?: Readonly<Record<string, LatitudeProfile>>;
    }
  | {
      readonly kind: 'live';
      /**
       * The target config, resolved once by the main process (from a preset such as `cert`, or a file: its format in
       * ARCHITECTURE.md) and handed to the workers as it is; secrets stay references (`{ "env": … }`) where so given.
       */
      readonly config: TargetConfig;
    };

export interface RunConfig {
  readonly target: TargetSpec;
  /** The client under test of the client suite; the reference TypeScript client when left out. */
  readonly client?: ClientSpec | undefined;
  /** Time limit of one op of the client under test, in ms (30 s by default). */
  readonly clientTimeoutMs?: number | undefined;
  /** The run's seed: every property runs with it, so a report's counterexample replays. */
  readonly seed: number;
  /** Generated cases per property. */
  readonly runs: number;
  /** Run `opt-in` rules against a live target. */
  readonly allowOptIn: boolean;
  /** Replays one property at a recorded path (`--replay`). */
  readonly replay?: { readonly check: string; readonly path: string } | undefined;
  /** What the run may take from a live target (tokens, sessions, rate); `LIVE_BUDGET` when left out. */
  readonly budget?: Budget | undefined;
  /** Time limit of one HTTP request, in ms. */
  readonly requestTimeoutMs: number;
  /**
   * Longest a request may spend waiting out throttles (429, 503, busy faults) before its check ends `error`
   * (`RATE_LIMITED`), in ms (`--throttle-wait`, the target config's `throttleWaitSeconds`; 60 s when left out).
   */
  readonly throttleWaitMs?: number | undefined;
  /**
   * The main process's session registry (live runs through the CLI): sessions are registered there before their
   * token is used, and the budget is counted there. Its key is made for the run; it is not a secret of the target.
   */
  readonly registry?: RegistryEndpoint | undefined;
  /**
   * The run's ID and correlation header, and where the workers write the run's traffic for `--har`; without it
   * (plain `npx vitest`) the requests carry `X-Conformance-Check` with a run ID of the worker's own.
   */
  readonly trace?: TraceConfig | undefined;
}

export const DEFAULT_SEED = 42;
export const DEFAULT_RUNS = 25;

export function defaultRunConfig(overrides: Partial<RunConfig> = {}): RunConfig {
  return {
    target: { kind: 'sim', defects: [] },
    seed: DEFAULT_SEED,
    runs: DEFAULT_RUNS,
    allowOptIn: false,
    requestTimeoutMs: 10_000,
    ...overrides,
  };
}

/** The provided run configuration, or the defaults when the tests run under plain `npx vitest`. */
export function providedRunConfig(provided: RunConfig | undefined): RunConfig {
  return provided ?? defaultRunConfig();
}

declare module 'vitest' {
  export interface ProvidedContext {
    tdsRun: RunConfig | undefined;
  }
}
