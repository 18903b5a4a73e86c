import type { Shard } from '../runner.ts';
import { UsageError } from './usage-error.ts';

/**
 * `--shard 2/3` → `{ index: 2, count: 3 }` (Vitest's sharding: the suites' files are split into `count` parts).
 * @throws {UsageError} unless it is `<index>/<count>` with 1 ≤ index ≤ count.
 */
export function parseShard(value: string | undefined): Shard | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || !Number.isSafeInteger(index) || !Number.isSafeInteger(count) || count < 1 || index < 1 || index > count) {
    throw new UsageError(`--shard takes <index>/<count> with 1 ≤ index ≤ count, such as --shard 1/3, not "${value}".`);
  }
  return { index, count };
}
