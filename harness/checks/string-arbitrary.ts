/**
 * fast-check's string arbitraries, made once per worker. `fc.string` (and `fc.stringMatching`, which makes one for
 * each repeated character class) computes its shrink slices when it is made (for
 * the `grapheme` unit about 10 ms, a tenth of a warm run's property work), and the suites' modules, evaluated again
 * for every run and some for every check, made theirs every time. An arbitrary is a pure value (what it generates
 * depends only on the random source it is handed), so sharing one between runs and checks changes no generated case.
 */
import fc from 'fast-check';

/** `fc.string`'s constraints with a named unit (an arbitrary unit has no key to share it by). */
export type StringArbitraryConstraints = Omit<fc.StringConstraints, 'unit'> & { readonly unit?: 'grapheme' | 'grapheme-composite' | 'grapheme-ascii' | 'binary' | 'binary-ascii' };

/** The arbitraries made so far, by what made them (`string …` or `matching …`). */
const made = new Map<string, fc.Arbitrary<string>>();

function once(key: string, make: () => fc.Arbitrary<string>): fc.Arbitrary<string> {
  let arbitrary = made.get(key);
  if (arbitrary === undefined) {
    arbitrary = make();
    made.set(key, arbitrary);
  }
  return arbitrary;
}

/** `fc.string(constraints)`, the same object for the same constraints. */
export function stringArbitrary(constraints: StringArbitraryConstraints = {}): fc.Arbitrary<string> {
  return once(`string ${JSON.stringify(Object.entries(constraints).sort(([a], [b]) => (a < b ? -1 : 1)))}`, () => fc.string(constraints));
}

/** `fc.stringMatching(regex)`, the same object for the same pattern and flags. */
export function stringMatchingArbitrary(regex: RegExp): fc.Arbitrary<string> {
  return once(`matching /${regex.source}/${regex.flags}`, () => fc.stringMatching(regex));
}
