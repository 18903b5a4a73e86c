import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { binaryUnit } from './binary-unit.ts';

/** fast-check's own binary unit, as it makes it (`mapToConstant` over the code points below and above the surrogates). */
const fastChecks = fc.mapToConstant(
  { num: 0xd800, build: (i) => String.fromCodePoint(i) },
  { num: 0x10ffff - 0xe000 + 1, build: (i) => String.fromCodePoint(0xe000 + i) },
);

// Both are `fc.nat({ max: 0x10F7FF }).map(…)`: the same integers, shrunk the same way, give the same code points.
describe('binaryUnit', () => {
  it("generates what fast-check's binary unit generates, from the same seeds", () => {
    for (const seed of [1, 42, 20_261_127]) {
      expect(fc.sample(binaryUnit, { seed, numRuns: 500 })).toEqual(fc.sample(fastChecks, { seed, numRuns: 500 }));
    }
  });

  it('reads a code point back to its index, at the ends of both ranges and on generated values', () => {
    const canShrink = (v: string) => binaryUnit.canShrinkWithoutContext(v);
    for (const v of ['\u0000', '\ud7ff', '\ue000', '\u{10ffff}', ...fc.sample(fastChecks, { seed: 7, numRuns: 200 })]) expect(canShrink(v), v).toBe(true);
    // A surrogate alone, two code points, nothing, not a string: not values of the unit.
    for (const v of ['\ud800', '\udfff', 'ab', '', 1]) expect(binaryUnit.canShrinkWithoutContext(v)).toBe(false);
  });
});
