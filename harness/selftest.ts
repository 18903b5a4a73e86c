import { runConformance, type RunOutcome } from './runner.ts';
import { defects, type Defect } from './sim/index.ts';
import { getRule, type RuleId } from './spec/index.ts';

/** What a rule's status must be when a defect breaking it is on: `fail` for MUST, `warn` for SHOULD. */
export function expectedStatus(rule: RuleId): 'fail' | 'warn' | 'info (differs from public)' {
  const level = getRule(rule).level;
  return level === 'MUST' ? 'fail' : level === 'SHOULD' ? 'warn' : 'info (differs from public)';
}

export type SelfTestResult =
  | { readonly kind: 'caught'; readonly defect: Defect; readonly statuses: Readonly<Partial<Record<RuleId, string>>> }
  | { readonly kind: 'missed'; readonly defect: Defect; readonly statuses: Readonly<Partial<Record<RuleId, string>>>; readonly missed: readonly RuleId[] };

/** Runs the rules a defect breaks against the simulator with that defect on, and says whether each was caught. */
export async function selfTestDefect(defect: Defect, options: { seed?: number; runs?: number } = {}): Promise<SelfTestResult> {
  const outcome = await runConformance({
    target: 'sim',
    suite: 'all',
    only: defect.breaks,
    defects: [defect.id],
    outDir: '',
    write: false,
    quiet: true,
    log: () => {},
    ...options,
  });
  const statuses: Partial<Record<RuleId, string>> = {};
  for (const id of defect.breaks) {
    const rule = outcome.report.rules.find((r) => r.id === id);
    // An INFO rule never fails: its defect is caught when the observation no longer matches the public behaviour.
    const differs = rule?.checks.some((c) => c.status === 'info' && c.matchesPublic === false);
    statuses[id] = rule?.status === 'info' ? (differs ? 'info (differs from public)' : 'info (matches public)') : (rule?.status ?? 'absent');
  }
  const missed = defect.breaks.filter((id) => statuses[id] !== expectedStatus(id));
  return missed.length ? { kind: 'missed', defect, statuses, missed } : { kind: 'caught', defect, statuses };
}

/** The clean run: every selected rule passes (or is info) against the simulator with no defect. */
export async function selfTestClean(options: { seed?: number; runs?: number } = {}): Promise<RunOutcome> {
  return runConformance({ target: 'sim', suite: 'all', outDir: '', write: false, quiet: true, log: () => {}, ...options });
}

export function allDefects(): readonly Defect[] {
  return defects;
}
