import { describe, expect, it } from 'vitest';
import { pipelined } from './pipelined.ts';

const later = <T>(value: T, ms: number) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('pipelined', () => {
  it('keeps up to `limit` items in flight and gives the results in the order of the list', async () => {
    let inFlight = 0;
    let most = 0;
    const out: number[] = [];
    for await (const [item, result] of pipelined([5, 1, 4, 2, 3, 0], 3, async (n) => {
      most = Math.max(most, ++inFlight);
      const r = await later(n * 10, n);
      inFlight--;
      return r;
    })) {
      expect(result).toBe(item * 10);
      out.push(item);
    }
    expect(out).toEqual([5, 1, 4, 2, 3, 0]);
    expect(most).toBe(3);
  });

  it('starts no more than `limit` items past the one the loop left at, and a rejection comes in its turn', async () => {
    const started: number[] = [];
    const seen: number[] = [];
    await expect((async () => {
      for await (const [item] of pipelined([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 2, async (n) => {
        started.push(n);
        if (n === 3) throw new Error('three');
        return n;
      })) seen.push(item);
    })()).rejects.toThrow('three');
    expect(seen).toEqual([0, 1, 2]);
    expect(started.length).toBeLessThanOrEqual(5);
    const early: number[] = [];
    for await (const [item] of pipelined([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 2, async (n) => (early.push(n), n))) if (item === 1) break;
    expect(early.length).toBeLessThanOrEqual(4);
  });
});
