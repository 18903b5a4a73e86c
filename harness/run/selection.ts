/**
 * Which rules and tests a run selects: the suite's sides narrowed by `--only`, the test-name patterns, the test
 * files that tag the rules, and the arguments that put a replay command in the run's context.
 */
import { join } from 'node:path';
import { rules, type RuleId, type Side } from '../catalog/index.ts';
import { indexSuiteTests } from '../docs/test-index.ts';
import { CODE_ROOT } from '../package-info.ts';
import type { RunOptions, SuiteName } from './options.ts';

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
export function replayContext(options: Pick<RunOptions, 'target' | 'suite' | 'defects' | 'allowOptIn' | 'runs' | 'requestTimeoutMs' | 'throttleWaitMs' | 'client'>): string[] {
  return [
    ...(options.client?.kind === 'command' ? ['--client', options.client.command] : []),
    ...(options.client?.kind === 'module' ? ['--client-module', options.client.path] : []),
    ...(options.target !== 'sim' ? ['--target', options.target] : []),
    ...(options.suite !== undefined && options.suite !== 'service' ? ['--suite', options.suite] : []),
    ...(options.defects ?? []).flatMap((d) => ['--defect', d]),
    ...(options.allowOptIn ? ['--allow-opt-in'] : []),
    ...(options.runs !== undefined ? ['--runs', String(options.runs)] : []),
    ...(options.requestTimeoutMs !== undefined ? ['--timeout', String(options.requestTimeoutMs)] : []),
    ...(options.throttleWaitMs !== undefined ? ['--throttle-wait', String(Math.round(options.throttleWaitMs / 1000))] : []),
  ];
}

/** Test files that tag any of `ids` (read from the suites' source), so that a run loads only what it needs. */
export function filesFor(ids: readonly RuleId[], suite: SuiteName): string[] {
  const wanted = new Set<string>(ids);
  const dirs = suite === 'all' ? ['suites/'] : [`suites/${suite}/`];
  const files = new Set(indexSuiteTests(CODE_ROOT).filter((t) => t.ids.some((id) => wanted.has(id)) && dirs.some((d) => t.file.startsWith(d))).map((t) => t.file));
  return [...files].map((f) => join(CODE_ROOT, f));
}
