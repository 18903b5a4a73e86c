import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CheckFailure } from './failure.ts';
import { PrerequisiteFailed } from './errors.ts';
import { runConfig } from './target.ts';
import { checkProperty, scaledRuns, type CheckContext, type CheckRunOptions } from './rule-test.ts';

/** Runs checkProperty's body with a stand-in context; resolves with the check's error and its failure details. */
async function outcome(predicate: (value: number) => Promise<void>): Promise<{ error: unknown; extra: Record<string, unknown> }> {
  const ctx = { resetEvidence: () => undefined } as unknown as CheckContext;
  let options: CheckRunOptions | undefined;
  let error: unknown;
  await checkProperty('SESS-04: a property', fc.integer({ min: 0, max: 1000 }), (_ctx, value) => predicate(value), 200, async (body, o) => {
    options = o;
    error = await body(ctx).then(() => undefined, (err: unknown) => err);
  });
  return { error, extra: (options?.extra?.(error) ?? {}) as Record<string, unknown> };
}

describe('checkProperty', () => {
  it('reports the deviation it found when a prerequisite is lost while shrinking it, with a counterexample that failed', async () => {
    let found = false;
    const { error, extra } = await outcome(async (value) => {
      // The first failure uses up what the check needs: every later case would find no session slot.
      if (found) throw new PrerequisiteFailed('no session slot: the pool is full');
      if (value >= 10) {
        found = true;
        throw new CheckFailure(`the pool refused session ${value}`);
      }
    });
    expect(error).toBeInstanceOf(CheckFailure);
    expect(String((error as Error).message)).toMatch(/^the pool refused session \d+$/);
    expect((JSON.parse(String(extra['counterexample'])) as number[])[0]).toBeGreaterThanOrEqual(10);
  });

  it('reports a lost prerequisite as such when no case failed for real before it', async () => {
    const { error } = await outcome(async (value) => {
      if (value >= 0) throw new PrerequisiteFailed('no session slot: the pool is full');
    });
    expect(error).toBeInstanceOf(PrerequisiteFailed);
  });

  it('shrinks a deviation as usual when nothing else goes wrong', async () => {
    const { error, extra } = await outcome(async (value) => {
      if (value >= 10) throw new CheckFailure(`too big: ${value}`);
    });
    expect(error).toBeInstanceOf(CheckFailure);
    expect(extra['counterexample']).toBe('[10]');
  });

  it('tries every example, and then as many random cases as --runs gives it (fast-check counts examples within numRuns)', async () => {
    // Plain Vitest runs at the default --runs (25), where a property's own count is what it runs.
    expect(runConfig().runs).toBe(25);
    const ctx = { resetEvidence: () => undefined } as unknown as CheckContext;
    const examples = [-1, -2, -3];
    const seenWith = async (numRuns: number) => {
      const seen: number[] = [];
      await checkProperty('SESS-04: a property', fc.integer({ min: 0, max: 1000 }), async (_ctx, value) => {
        seen.push(value);
      }, numRuns, async (body) => body(ctx), examples);
      return seen;
    };
    // numRuns 1: one random case after the three examples; numRuns 4: four.
    for (const [numRuns, random] of [[1, 1], [4, 4]] as const) {
      const seen = await seenWith(numRuns);
      expect(seen.slice(0, 3)).toEqual(examples);
      expect(seen.slice(3), `numRuns ${numRuns}`).toHaveLength(random);
      expect(seen.slice(3).every((v) => v >= 0)).toBe(true);
    }
  });

  it('scales a property\'s own count linearly with --runs (25 is its own count), at least one case', () => {
    expect(scaledRuns(1, 25)).toBe(1);
    expect(scaledRuns(4, 25)).toBe(4);
    expect(scaledRuns(4, 250)).toBe(40);
    expect(scaledRuns(10, 5)).toBe(2);
    expect(scaledRuns(1, 5)).toBe(1);
    expect(scaledRuns(200, 1)).toBe(8);
    expect(scaledRuns(undefined, 7)).toBe(7);
  });
});
