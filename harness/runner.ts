import { join } from 'node:path';
import { createVitest } from 'vitest/node';
import { ConformanceReporter, Redactor, type Report } from './report/index.ts';
import type { Baseline } from './report/baseline.ts';
import type { ReplayTarget } from './report/replay.ts';
import { DEFAULT_RUNS, DEFAULT_SEED, type RunConfig, type TargetSpec } from './run-config.ts';
import { defaultAccounts, parseDefects } from './sim/index.ts';
import { rules, type RuleId, type Side } from './spec/index.ts';
import { ConfigError, createLiveTarget, loadTargetConfig, type Target, type TargetConfig } from './targets/index.ts';
import { presetConfig } from './targets/presets.ts';
import { PACKAGE_ROOT, TOOL_VERSION } from './package-info.ts';

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
}

export interface RunOutcome {
  readonly report: Report;
  readonly exitCode: number;
}

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
export function replayContext(options: Pick<RunOptions, 'target' | 'suite' | 'defects' | 'allowOptIn' | 'runs' | 'requestTimeoutMs'>): string[] {
  return [
    ...(options.target !== 'sim' ? ['--target', options.target] : []),
    ...(options.suite !== undefined && options.suite !== 'service' ? ['--suite', options.suite] : []),
    ...(options.defects ?? []).flatMap((d) => ['--defect', d]),
    ...(options.allowOptIn ? ['--allow-opt-in'] : []),
    ...(options.runs !== undefined ? ['--runs', String(options.runs)] : []),
    ...(options.requestTimeoutMs !== undefined ? ['--timeout', String(options.requestTimeoutMs)] : []),
  ];
}

/** Loads and checks what `--target` names, before any test starts. Throws {@link ConfigError}. */
export function resolveTarget(target: string, defects: readonly string[] = []): { spec: TargetSpec; config?: TargetConfig } {
  if (target === 'sim') {
    parseDefects(defects);
    return { spec: { kind: 'sim', defects } };
  }
  if (defects.length) throw new ConfigError('CONFIG_INVALID', `--defect only applies to --target sim (the built-in simulator), not to ${target}.`);
  const config = presetConfig(target) ?? loadTargetConfig(target);
  // Resolve secrets now, so a missing variable is reported before the run starts.
  createLiveTarget(config).close().catch(() => undefined);
  return { spec: { kind: 'live', config: target }, config };
}

/** Secrets the main process knows of, registered so that nothing it writes can show them. */
function redactorFor(spec: TargetSpec, seed: number, target?: Target): Redactor {
  const redactor = new Redactor();
  if (spec.kind === 'sim') {
    const d = defaultAccounts(seed);
    for (const a of [...d.accounts.cert, ...d.accounts.prod]) redactor.add(a.password);
  }
  for (const a of Object.values(target?.accounts ?? {})) if (a) redactor.add(a.password);
  return redactor;
}

/**
 * Runs the conformance suites through Vitest's Node API with the conformance reporter, and returns the report.
 * `npx vitest --project conformance` runs the same tests with the default configuration.
 */
export async function runConformance(options: RunOptions): Promise<RunOutcome> {
  const suite = options.suite ?? 'service';
  const seed = options.seed ?? DEFAULT_SEED;
  const runs = options.runs ?? DEFAULT_RUNS;
  const { spec, config } = resolveTarget(options.target, options.defects);
  const live = config ? createLiveTarget(config) : undefined;
  const redactor = redactorFor(spec, seed, live);
  await live?.close();
  const run: RunConfig = {
    target: spec,
    seed,
    runs,
    allowOptIn: options.allowOptIn ?? false,
    replay: options.replay?.path !== undefined ? { check: options.replay.check, path: options.replay.path } : undefined,
    requestTimeoutMs: options.requestTimeoutMs ?? (spec.kind === 'sim' ? 5_000 : 15_000),
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
  });
  const files = suite === 'all' ? ['suites/'] : [`suites/${suite}/`];
  const vitest = await createVitest(
    'test',
    {
      root: PACKAGE_ROOT,
      config: join(PACKAGE_ROOT, 'vitest.config.ts'),
      project: ['conformance'],
      watch: false,
      reporters: [reporter],
      provide: { tdsRun: run },
      passWithNoTests: true,
      ...(options.only && selection.length > 0 && { testNamePattern: titlePattern(selection) }),
      ...(options.replay && { testNamePattern: exactTitlePattern(options.replay.check) }),
    },
    {},
    {},
  );
  const previousExitCode = process.exitCode;
  try {
    if (selection.length > 0) await vitest.start(files);
    else await vitest.start(['(nothing selected)']);
  } finally {
    await vitest.close();
    process.exitCode = previousExitCode;
  }
  const report = await reporter.result();
  return { report, exitCode: report.exitCode };
}
