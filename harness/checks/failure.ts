import type { Problem } from '../judges/index.ts';

/**
 * A check that found the target not doing what a rule says. Carries what was expected and what was seen, in the
 * style of oauth4webapi: `unexpected "token_type" value` with `{ expected: 'bearer', actual: 'Bearer' }`.
 */
export class CheckFailure extends Error {
  readonly code: string;
  readonly expected: string | undefined;
  readonly actual: string | undefined;
  /** The clause (`<rule ID>.<slug>`) the failure breaks, where the check knows it (a judge's problem). */
  readonly clause: string | undefined;
  constructor(message: string, details: { code?: string; expected?: unknown; actual?: unknown; shown?: boolean; clause?: string } = {}) {
    super(message);
    this.name = 'CheckFailure';
    this.code = details.code ?? 'CHECK_FAILED';
    this.clause = details.clause;
    const display = (v: unknown) => (details.shown && typeof v === 'string' ? v : show(v));
    this.expected = 'expected' in details ? display(details.expected) : undefined;
    this.actual = 'actual' in details ? display(details.actual) : undefined;
  }
}

/**
 * Runs `body` as the check of one clause: a {@link CheckFailure} it throws without a clause of its own is that
 * clause's (the report then fails that clause alone, not every clause of the check).
 */
export async function inClause<T>(clause: string, body: () => Promise<T> | T): Promise<T> {
  try {
    return await body();
  } catch (err) {
    if (!(err instanceof CheckFailure) || err.clause !== undefined) throw err;
    const again = new CheckFailure(err.message, { code: err.code, shown: true, clause, ...(err.expected !== undefined && { expected: err.expected }), ...(err.actual !== undefined && { actual: err.actual }) });
    again.stack = err.stack;
    throw again;
  }
}

/** Fails with a judge's problem (harness/judges), its expected and actual values as the judge wrote them. */
export function failOn(problem: Problem | undefined): void {
  if (problem) throw new CheckFailure(problem.message, { expected: problem.expected, actual: problem.actual, shown: true, clause: problem.clause });
}

/** A value as a report shows it: strings quoted, everything else as JSON. */
export function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Fails unless `actual` is exactly `expected` (Object.is, or deep equality through JSON for objects). */
export function expectEqual(what: string, actual: unknown, expected: unknown, code?: string): void {
  const same = Object.is(actual, expected) || (typeof expected === 'object' && expected !== null && show(actual) === show(expected));
  if (!same) throw new CheckFailure(`unexpected ${what}`, { expected, actual, ...(code && { code }) });
}

/** Fails with `message` unless `condition` holds. */
export function expectThat(condition: boolean, message: string, details: { expected?: unknown; actual?: unknown; code?: string } = {}): asserts condition {
  if (!condition) throw new CheckFailure(message, details);
}
