/**
 * Which of the suites' files a run runs, and in what order, decided per run rather than per Vitest instance: a
 * session serves runs with different shards (`--shard i/n`) and file orders (a seed) without opening a Vitest (and
 * warming a worker) for each. The same partition and the same shuffle as Vitest's own `--shard` and
 * `sequence.shuffle.files` (its BaseSequencer and RandomSequencer), so a shard runs the files it ran before.
 */
import { createHash } from 'node:crypto';
import type { BaseSequencer, TestSequencer, TestSpecification, Vitest } from 'vitest/node';
import type { Shard } from './options.ts';

/** What the current run asks of the file order: a shard of the files, and a seed to shuffle them with. */
export interface FileOrder {
  readonly shard?: Shard | undefined;
  readonly seed?: number | undefined;
}

/** The `[start, end)` range of shard `index` (1-based) of `count` among `files` files, as Vitest distributes them. */
export function shardRange(files: number, index: number, count: number): readonly [number, number] {
  const base = Math.floor(files / count);
  const remainder = files % count;
  if (remainder >= index) return [(base + 1) * (index - 1), (base + 1) * index];
  const start = remainder * (base + 1) + (index - remainder - 1) * base;
  return [start, start + base];
}

/**
 * The files of shard `shard`: the files ordered by the SHA-1 of their path from `root` (`/suites/service/x.test.js`),
 * then cut in `count` ranges. Independent of the order the files come in, so each CI job computes the same partition.
 */
export function shardOf<T>(files: readonly T[], shard: Shard, root: string, pathOf: (file: T) => string): T[] {
  const slash = (p: string) => p.replace(/\\/g, '/');
  const base = slash(root).replace(/\/$/, '');
  const keyed = files.map((file) => {
    const path = slash(pathOf(file));
    const key = path.startsWith(`${base}/`) ? path.slice(base.length) : path;
    return { file, hash: createHash('sha1').update(key).digest('hex') };
  });
  keyed.sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0));
  const [start, end] = shardRange(files.length, shard.index, shard.count);
  return keyed.slice(start, end).map(({ file }) => file);
}

/** `items` shuffled in place with `seed` (the same permutation as Vitest's `shuffle`), and returned. */
export function shuffleWith<T>(items: T[], seed: number): T[] {
  let s = seed;
  for (let length = items.length; length > 0;) {
    const x = Math.sin(s) * 10_000;
    const index = Math.floor((x - Math.floor(x)) * length--);
    const previous = items[length]!;
    items[length] = items[index]!;
    items[index] = previous;
    s++;
  }
  return items;
}

/**
 * The sequencer class of a session's Vitest (`sequence.sequencer`): it asks `current` for the running run's seed each
 * time Vitest sorts a run's files; without one, Vitest's own order (`base`, its BaseSequencer). A run's shard is cut
 * before the files reach Vitest (`shardOf`), not here: Vitest reports every file it was asked to run, and in a session
 * a file left out by the sequencer would be reported with its results from the session's last run of it.
 */
export function sessionSequencer(base: typeof BaseSequencer, current: () => FileOrder): new (ctx: Vitest) => TestSequencer {
  return class SessionSequencer extends base {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const { seed } = current();
      return seed === undefined ? super.sort(files) : shuffleWith([...files], seed);
    }
  };
}
