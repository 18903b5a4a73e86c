/**
 * Running the conformance suites: the entry points, gathered from harness/run/ (options, guard, selection, target,
 * session), where each part lives in a module of its own.
 */
export type { ActiveRun, RunOptions, RunOutcome, Shard, SuiteName } from './run/options.ts';
export { LIVE_DEFAULT_RUNS } from './run/options.ts';
export { exactTitlePattern, filesFor, replayContext, selectRules, titlePattern } from './run/selection.ts';
export { resolveTarget } from './run/target.ts';
export { ConformanceSession, runConformance } from './run/session.ts';
export type { SessionOptions } from './run/session.ts';
