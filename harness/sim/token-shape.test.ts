import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Random } from './random.ts';
import { HEX_ALPHABET, learnShape, TOKEN_SHAPES, tokenOfShape, URL_SAFE_ALPHABET, type TokenShape } from './token-shape.ts';

const tokens = (shape: TokenShape, n: number, seed = 1) => {
  const random = new Random(seed);
  return Array.from({ length: n }, () => tokenOfShape(random, shape));
};

describe('token shapes (latitude token-format)', () => {
  it('makes tokens of each of the earlier formats', () => {
    expect(tokens(TOKEN_SHAPES.public, 1)[0]).toMatch(/^T1RLAQ[A-Za-z0-9+/]{118}\*$/);
    expect(tokens(TOKEN_SHAPES.hex, 1)[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(tokens(TOKEN_SHAPES.jwt, 1)[0]).toMatch(/^eyJhbGciOiJSUzI1NiJ9\.[\w-]{80}\.[\w-]{43}$/);
    expect(tokens(TOKEN_SHAPES.uuid, 1)[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('reads back the shape it made, from a handful of tokens (the round trip a learned profile relies on)', () => {
    for (const shape of Object.values(TOKEN_SHAPES)) expect(learnShape(tokens(shape, 8))?.shape).toEqual(shape);
    fc.assert(fc.property(
      fc.record({ prefix: fc.stringMatching(/^[A-Z]{0,6}$/), suffix: fc.constantFrom('', '*', '.x'), alphabet: fc.constantFrom(HEX_ALPHABET, URL_SAFE_ALPHABET), length: fc.integer({ min: 20, max: 120 }), seed: fc.integer() }),
      ({ seed, ...rest }) => {
        const shape: TokenShape = { kind: 'chars', ...rest, length: Math.max(rest.length, rest.prefix.length + rest.suffix.length + 16) };
        const learned = learnShape(tokens(shape, 12, seed));
        expect(learned?.shape.kind).toBe('chars');
        if (learned?.shape.kind !== 'chars') return;
        // What is learned makes tokens of the same look: the same prefix and suffix, length and alphabet.
        expect(learned.shape.prefix.startsWith(shape.prefix)).toBe(true);
        expect(learned.shape.suffix.endsWith(shape.suffix)).toBe(true);
        expect(learned.shape.length).toBe(shape.length);
        // Its alphabet holds every character the shape's tokens carry between prefix and suffix, and no more than the
        // shape's own alphabet (the smallest known alphabet that holds them).
        const { prefix, suffix, alphabet } = learned.shape;
        const middle = tokens(shape, 12, seed).flatMap((t) => [...t.slice(prefix.length, t.length - suffix.length)]);
        expect(middle.every((c) => alphabet.includes(c))).toBe(true);
        expect(alphabet.length).toBeLessThanOrEqual(shape.alphabet.length);
      },
    ), { seed: 42, numRuns: 60 });
  });

  it('reads no prefix or suffix from fewer than four tokens, and none from no token at all', () => {
    expect(learnShape(['abc123', 'abd999'])?.shape).toMatchObject({ kind: 'chars', prefix: '', suffix: '' });
    expect(learnShape([])).toBeUndefined();
    expect(learnShape(['T1RLAQxx*', 'T1RLAQyyy*'])?.lengths).toEqual({ min: 9, max: 10 });
  });
});
