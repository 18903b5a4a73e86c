import { describe, expect, it } from 'vitest';
import { parseRunArgs } from './run.ts';
import { parseShard } from './shard.ts';

describe('--shard', () => {
  it('reads <index>/<count> into the run options', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    expect(parseShard(undefined)).toBeUndefined();
    expect(parseRunArgs(['--shard', '1/4']).options.shard).toEqual({ index: 1, count: 4 });
    expect(parseRunArgs([]).options.shard).toBeUndefined();
  });

  it.each(['0/3', '4/3', '1/0', '1', 'a/b', '1/2/3', '-1/2'])('refuses "%s" with one line saying the form', (value) => {
    expect(() => parseShard(value)).toThrow(`--shard takes <index>/<count> with 1 ≤ index ≤ count, such as --shard 1/3, not "${value}".`);
  });
});
