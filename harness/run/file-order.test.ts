import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BaseSequencer, type TestSpecification, type Vitest } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import { CODE_ROOT } from '../package-info.ts';
import { sessionSequencer, shardOf, shardRange, shuffleWith, type FileOrder } from './file-order.ts';

/** The suites' files, as a session's Vitest names them (absolute paths). */
const FILES = ['service', 'client'].flatMap((suite) =>
  readdirSync(join(CODE_ROOT, 'suites', suite)).filter((f) => f.endsWith('.test.ts')).map((f) => join(CODE_ROOT, 'suites', suite, f)));

/** What the sequencers read of a specification and of Vitest (nothing else is touched by sort and shard). */
const spec = (moduleId: string) => ({ moduleId, project: { name: 'conformance', config: { sequence: { groupOrder: 0 }, isolate: false } } }) as unknown as TestSpecification;
const ctx = (shard?: { index: number; count: number }) => ({
  config: { root: CODE_ROOT, ...(shard && { shard }) },
  cache: { getFileTestResults: () => undefined, getFileStats: () => undefined },
}) as unknown as Vitest;
const ids = (specs: readonly TestSpecification[]) => specs.map((s) => s.moduleId);

describe('a run\'s shard and file order (harness/run/file-order.ts)', () => {
  it('cuts the files into the shards Vitest\'s --shard gives, whatever order they come in', async () => {
    expect(FILES.length).toBeGreaterThan(10);
    for (let count = 1; count <= 5; count++) {
      const all: string[] = [];
      for (let index = 1; index <= count; index++) {
        const vitests = ids(await new BaseSequencer(ctx({ index, count })).shard(FILES.map(spec)));
        const ours = shardOf([...FILES].reverse(), { index, count }, CODE_ROOT, (f) => f);
        expect(ours).toEqual(vitests);
        all.push(...ours);
      }
      // Every file in exactly one shard.
      expect([...all].sort()).toEqual([...FILES].sort());
    }
  });

  it('splits n files as evenly as Vitest does', () => {
    expect([1, 2, 3].map((i) => shardRange(11, i, 3))).toEqual([[0, 4], [4, 8], [8, 11]]);
    expect([1, 2, 3, 4].map((i) => shardRange(2, i, 4))).toEqual([[0, 1], [1, 2], [2, 2], [2, 2]]);
  });

  it('shuffles with a seed as Vitest\'s sequence.shuffle does (the orders the budget-order test used before)', () => {
    const twelve = () => Array.from({ length: 12 }, (_, i) => i);
    // Vitest 4's shuffle (@vitest/utils) of 0..11 with these seeds.
    expect(shuffleWith(twelve(), 7)).toEqual([11, 5, 2, 3, 8, 4, 9, 0, 7, 1, 6, 10]);
    expect(shuffleWith(twelve(), 20261126)).toEqual([2, 5, 10, 6, 7, 8, 1, 4, 3, 9, 0, 11]);
    expect(shuffleWith([], 3)).toEqual([]);
  });

  it('orders each run as that run asks: by its seed, or in Vitest\'s own order', async () => {
    let order: FileOrder = {};
    const Sequencer = sessionSequencer(BaseSequencer, () => order);
    const sequencer = new Sequencer(ctx());
    const specs = FILES.map(spec);
    const vitestOwn = ids(await new BaseSequencer(ctx()).sort([...specs]));
    expect(ids(await sequencer.sort([...specs]))).toEqual(vitestOwn);

    order = { seed: 7 };
    const shuffled = ids(await sequencer.sort([...specs]));
    expect(shuffled).toEqual(shuffleWith([...FILES], 7));
    expect(shuffled).not.toEqual(vitestOwn);
    order = { seed: 20261126 };
    expect(ids(await sequencer.sort([...specs]))).toEqual(shuffleWith([...FILES], 20261126));

    // A shard is cut before the files reach Vitest (the session does it): the sequencer orders what it is given.
    order = { shard: { index: 2, count: 3 } };
    expect(ids(await sequencer.sort([...specs]))).toEqual(vitestOwn);

    // The next run without a seed: Vitest's order again (nothing of the last run stays).
    order = {};
    expect(ids(await sequencer.sort([...specs]))).toEqual(vitestOwn);
  });
});
