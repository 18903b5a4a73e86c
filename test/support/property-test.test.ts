import { fc as libraryFc, test as libraryTest } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { fc, propOn, test } from './property-test.ts';

/**
 * test/support/property-test.ts's `test.prop` against @fast-check/vitest's: for the same arbitraries and parameters,
 * tests of the same names that see the same values in the same order (tuple and record forms, an explicit seed and
 * the global one, examples), and a property that does not hold fails its test.
 */
const seen = { ours: new Map<string, unknown[]>(), library: new Map<string, unknown[]>() };
const record = (side: keyof typeof seen, key: string) => (...args: unknown[]) => {
  const list = seen[side].get(key) ?? [];
  list.push(args);
  seen[side].set(key, list);
};

const tuple = [fc.integer({ min: -50, max: 50 }), fc.string({ maxLength: 6 })] as const;
const fields = { id: fc.nat(1_000), name: fc.constantFrom('a', 'b', 'c'), flag: fc.boolean() };

describe('test.prop, ours and the library\'s', () => {
  test.prop([...tuple], { numRuns: 12, seed: 7 })('tuple', record('ours', 'tuple'));
  libraryTest.prop([...tuple], { numRuns: 12, seed: 7 })('tuple', record('library', 'tuple'));
  test.prop(fields, { numRuns: 9, examples: [{ id: 1, name: 'c', flag: true }] })('record', record('ours', 'record'));
  libraryTest.prop(fields, { numRuns: 9, examples: [{ id: 1, name: 'c', flag: true }] })('record', record('library', 'record'));
  // The global configuration's seed (harness/fastcheck-setup.ts) when the parameters give none.
  test.prop([fc.array(fc.nat(9), { maxLength: 4 })], { numRuns: 5 })('global seed', record('ours', 'global'));
  libraryTest.prop([libraryFc.array(libraryFc.nat(9), { maxLength: 4 })], { numRuns: 5 })('global seed', record('library', 'global'));

  it('named its tests as the library does, and they saw the same values', ({ task }) => {
    const names = task.suite!.tasks.map((t) => t.name).filter((n) => n !== task.name);
    expect(names).toEqual([
      'tuple (with seed=7)', 'tuple (with seed=7)',
      `record (with seed=${fc.readConfigureGlobal().seed})`, `record (with seed=${fc.readConfigureGlobal().seed})`,
      `global seed (with seed=${fc.readConfigureGlobal().seed})`, `global seed (with seed=${fc.readConfigureGlobal().seed})`,
    ]);
    for (const key of ['tuple', 'record', 'global']) {
      expect(seen.ours.get(key)?.length, key).toBeGreaterThan(4);
      expect(seen.ours.get(key), key).toEqual(seen.library.get(key));
    }
    expect(seen.ours.get('record')?.[0]).toEqual([{ id: 1, name: 'c', flag: true }]);
  });
});

describe('a property that does not hold', () => {
  // Declared with `it.fails`: the test passes only if the property's assertion throws.
  propOn(it.fails)([fc.nat(100)], { numRuns: 50, seed: 3 })('fails its test', (n) => n < 90);
});
