/**
 * What a judge finds wrong with one exchange: the clause it breaks, in words, with what was expected and what came.
 * Judges are pure functions of what was sent and answered; the suites turn a problem into a `CheckFailure`, `observe`
 * and `judge` into a broken clause verdict — the same words either way.
 */
export interface Problem {
  /** `<rule ID>.<slug>` of the catalog. */
  readonly clause: string;
  readonly message: string;
  readonly expected: string;
  readonly actual: string;
}

export function problem(clause: string, message: string, expected: string, actual: string): Problem {
  return { clause, message, expected, actual };
}

/** `1 call`, `2 calls`: a count and its noun, as the judges' and observe's messages write them. */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
