import fc from 'fast-check';

/** Code points below the surrogates; the rest, above them, follow in the unit's index. */
const SURROGATES = 0xd800;
const SURROGATE_COUNT = 0x800;
/** The last index: every code point but the 2048 surrogates, 0x10F7FF. */
const LAST = 0x10ffff - SURROGATE_COUNT;

/**
 * fast-check's `unit: 'binary'` (any code point but a surrogate, one per string), the same values from the same random
 * source: an index over 0..0xD7FF then 0xE000..0x10FFFF, as fast-check's own unit maps it (`mapToConstant` over
 * those two ranges). What differs is the way back from a value to its index, which fast-check needs when a string
 * arbitrary is made (it splits a few known strings into units): its own unit builds a map of all 1,112,064 code
 * points for it, 0.7-1.2 s of a test worker's CPU the first time `fc.string({ unit: 'binary' })` is called; this one
 * computes it. Pass it as `fc.string({ unit: binaryUnit })`.
 */
export const binaryUnit: fc.Arbitrary<string> = fc.nat({ max: LAST }).map(
  (index) => String.fromCodePoint(index < SURROGATES ? index : index + SURROGATE_COUNT),
  (value) => {
    if (typeof value !== 'string') throw new Error('not a string');
    const code = value.codePointAt(0);
    if (code === undefined || String.fromCodePoint(code) !== value || (code >= SURROGATES && code < SURROGATES + SURROGATE_COUNT)) {
      throw new Error('not one code point outside the surrogates');
    }
    return code < SURROGATES ? code : code - SURROGATE_COUNT;
  },
);
