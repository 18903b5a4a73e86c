import type { RuleId } from './types.ts';

/**
 * Rules that no conformance test checks yet, each waiting for the issue that will cover it.
 * This list may only shrink: `coverage.test.ts` fails when a rule listed here gains a test (remove it from the
 * list) and when a rule outside it has none.
 */
export const notYetCovered: Readonly<Partial<Record<RuleId, string>>> = {
};
