import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringArbitrary, stringMatchingArbitrary } from './string-arbitrary.ts';

describe('shared string arbitraries', () => {
  it('gives the same object for the same constraints, in any order, and another for others', () => {
    const a = stringArbitrary({ unit: 'grapheme', minLength: 1, maxLength: 12 });
    expect(stringArbitrary({ maxLength: 12, minLength: 1, unit: 'grapheme' })).toBe(a);
    expect(stringArbitrary({ unit: 'grapheme', minLength: 1, maxLength: 13 })).not.toBe(a);
    expect(stringArbitrary()).toBe(stringArbitrary({}));
  });

  it('generates what a freshly made fc.string generates from the same seed', () => {
    for (const constraints of [{}, { unit: 'grapheme', minLength: 1, maxLength: 20 }, { unit: 'grapheme-ascii', maxLength: 6 }] as const) {
      stringArbitrary(constraints); // made once before: the second use is the shared one
      const shared = fc.sample(stringArbitrary(constraints), { seed: 7, numRuns: 50 });
      expect(shared).toEqual(fc.sample(fc.string(constraints), { seed: 7, numRuns: 50 }));
    }
  });
});

describe('shared stringMatching arbitraries', () => {
  it('gives the same object for the same pattern and flags only, generating what a fresh one does', () => {
    const a = stringMatchingArbitrary(/^[A-Z0-9]{3,5}$/);
    expect(stringMatchingArbitrary(/^[A-Z0-9]{3,5}$/)).toBe(a);
    expect(stringMatchingArbitrary(/^[A-Z0-9]{3,5}$/m)).not.toBe(a);
    expect(stringMatchingArbitrary(/^[A-Z0-9]{3,6}$/)).not.toBe(a);
    expect(fc.sample(a, { seed: 3, numRuns: 50 })).toEqual(fc.sample(fc.stringMatching(/^[A-Z0-9]{3,5}$/), { seed: 3, numRuns: 50 }));
  });
});
