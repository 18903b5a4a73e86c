import { TransportError } from '../targets/index.ts';
import type { RuleId } from '../catalog/index.ts';
import type { CheckOutcome } from '../report/meta.ts';
import { BudgetExhausted } from './budget.ts';

/**
 * The errors a check body throws to say it did not come to a `fail` — and the one mapping from an exception to a
 * check's outcome ({@link outcomeOf}). Every code of this folder is one of {@link CheckErrorCode}.
 */
export type CheckErrorCode =
  | 'NOT_APPLICABLE'
  | 'OPT_IN_REQUIRED'
  | 'PREREQUISITE_FAILED'
  | 'INCONCLUSIVE'
  | 'BUDGET_EXHAUSTED'
  | 'CHECK_FAILED';

/** The rule needs something this target does not offer or declare: `not-applicable`, with the reason. */
export class NotApplicable extends Error {
  readonly code = 'NOT_APPLICABLE' satisfies CheckErrorCode;
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'NotApplicable';
  }
}

/** A part of a check that uses shared resources of a live target, run without `--allow-opt-in`: `skipped`. */
export class OptInRequired extends Error {
  readonly code = 'OPT_IN_REQUIRED' satisfies CheckErrorCode;
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'OptInRequired';
  }
}

/**
 * A check could not get to what it checks because something it builds on failed (no token could be obtained by any
 * route, say). Reported `skipped` with the reason, so one broken prerequisite does not cascade into a row of failures.
 * `after` names the rules whose own checks judge the prerequisite: the report adds the first of them that failed in
 * the run.
 */
export class PrerequisiteFailed extends Error {
  readonly code = 'PREREQUISITE_FAILED' satisfies CheckErrorCode;
  constructor(readonly reason: string, readonly after: readonly RuleId[] = []) {
    super(reason);
    this.name = 'PrerequisiteFailed';
  }
}

/**
 * The check could not come to a verdict: the target answered something that says nothing about the rule (a probe
 * action the service does not offer, a fault the harness cannot read, a server error). Reported `error`, with what
 * came back and what to configure — never `fail`.
 */
export class Inconclusive extends Error {
  readonly code = 'INCONCLUSIVE' satisfies CheckErrorCode;
  /**
   * `recheck`: a control the check runner sends before it reports the error — the same kind of request with one
   * factor changed — which may show that the answer is the target's usual shape for a refusal it breaks elsewhere
   * (a prerequisite that failed, not an error).
   */
  constructor(message: string, readonly recheck?: () => Promise<PrerequisiteFailed | undefined>) {
    super(message);
    this.name = 'Inconclusive';
  }
}

/** What an exception thrown by a check means. `fail` is anything else: the target broke the rule. */
export type ThrownOutcome =
  | { readonly kind: 'not-run'; readonly outcome: Extract<CheckOutcome, { kind: 'not-applicable' | 'skipped' }> }
  | { readonly kind: 'error'; readonly code: string; readonly message: string }
  | { readonly kind: 'fail' };

/**
 * The one mapping from an exception to a check's outcome: not applicable, skipped (opt-in, budget, prerequisite),
 * `error` (transport trouble, an inconclusive answer, a driver that failed), or `fail`.
 */
export function outcomeOf(err: unknown): ThrownOutcome {
  if (err instanceof NotApplicable) return { kind: 'not-run', outcome: { kind: 'not-applicable', reason: err.reason } };
  if (err instanceof OptInRequired) return { kind: 'not-run', outcome: { kind: 'skipped', reason: err.reason } };
  if (err instanceof BudgetExhausted) return { kind: 'not-run', outcome: { kind: 'skipped', reason: err.message } };
  if (err instanceof PrerequisiteFailed) {
    return { kind: 'not-run', outcome: { kind: 'skipped', reason: `prerequisite failed: ${err.reason}`, ...(err.after.length > 0 && { after: err.after }) } };
  }
  if (err instanceof TransportError || err instanceof Inconclusive) return { kind: 'error', code: err.code, message: err.message };
  const code = err instanceof Error && err.name === 'DriverFailure' ? (err as Error & { code?: unknown }).code : undefined;
  if (err instanceof Error && typeof code === 'string') return { kind: 'error', code, message: err.message };
  return { kind: 'fail' };
}
