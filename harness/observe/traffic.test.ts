/**
 * Judging N exchanges takes time linear in N: every rule reads the traffic through the lists and indexes of
 * {@link Traffic}, and the reads are counted on traffic of 2 and of 8 copies of the reference client's recorded
 * workload (fixtures/har/conforming.har, each copy with tokens of its own, later in time). Four times the traffic must
 * read about four times as much, where a scan per item (a quadratic judge) reads sixteen times as much. No timing.
 */
import { describe, expect, it } from 'vitest';
import { judgeClientRules } from './client-rules.ts';
import { envelopesParsed } from './envelopes.ts';
import type { JudgeContext } from './exchange.ts';
import { judgeServiceRules } from './service-rules.ts';
import { Traffic } from './traffic.ts';
import { conformingContext, replicated } from '../../test/support/replicated-traffic.ts';

const context = conformingContext;

/** An array whose element reads are counted (indexing, iterating, and every array method, which index). */
function counted<T>(list: readonly T[], count: { reads: number }): readonly T[] {
  return new Proxy(list, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) count.reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

/** An array as it is, anything else as a counted array if it is one. */
const countedIfArray = <V>(value: V, count: { reads: number }): V => (Array.isArray(value) ? (counted(value, count) as V) : value);

/** A Map whose lookups (`get`, `has`: one read each) and iterations (one read per entry) are counted; array values counted too. */
function countedMap<K, V>(map: ReadonlyMap<K, V>, count: { reads: number }): Map<K, V> {
  class CountedMap extends Map<K, V> {
    override get(key: K): V | undefined {
      count.reads++;
      return super.get(key);
    }
    override has(key: K): boolean {
      count.reads++;
      return super.has(key);
    }
    override *entries(): MapIterator<[K, V]> {
      for (const entry of super.entries()) {
        count.reads++;
        yield entry;
      }
    }
    override *keys(): MapIterator<K> {
      for (const [key] of this.entries()) yield key;
    }
    override *values(): MapIterator<V> {
      for (const [, value] of this.entries()) yield value;
    }
    override [Symbol.iterator](): MapIterator<[K, V]> {
      return this.entries();
    }
    override forEach(fn: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
      for (const [key, value] of this.entries()) fn.call(thisArg, value, key, this);
    }
  }
  return new CountedMap([...map].map(([k, v]) => [k, countedIfArray(v, count)]));
}

/** A Set whose lookups and iterations are counted as {@link countedMap}'s. */
function countedSet<T>(set: ReadonlySet<T>, count: { reads: number }): Set<T> {
  class CountedSet extends Set<T> {
    override has(value: T): boolean {
      count.reads++;
      return super.has(value);
    }
    override *values(): SetIterator<T> {
      for (const value of super.values()) {
        count.reads++;
        yield value;
      }
    }
    override keys(): SetIterator<T> {
      return this.values();
    }
    override *entries(): SetIterator<[T, T]> {
      for (const value of this.values()) yield [value, value];
    }
    override [Symbol.iterator](): SetIterator<T> {
      return this.values();
    }
    override forEach(fn: (value: T, same: T, set: Set<T>) => void, thisArg?: unknown): void {
      for (const value of this.values()) fn.call(thisArg, value, value, this);
    }
  }
  return new CountedSet(set);
}

/** A collection with its reads counted: arrays, Maps (of anything) and Sets; anything else as it is. */
function countedValue(value: unknown, count: { reads: number }): unknown {
  if (Array.isArray(value)) return counted(value, count);
  if (value instanceof Map) return countedMap(value, count);
  if (value instanceof Set) return countedSet(value, count);
  return value;
}

/**
 * Judges the traffic with every collection the judge reads counted: each list, Map and Set of the Traffic (the
 * lists inside its indexes included), and those of its context (the expiry times).
 */
async function readsToJudge(copies: number): Promise<{ reads: number; exchanges: number; parsed: number; soap: number; counted: string[] }> {
  const { exchanges, expired } = replicated(copies);
  const parsedBefore = envelopesParsed();
  const t = new Traffic(exchanges, context(expired));
  const count = { reads: 0 };
  const wrapped: string[] = [];
  for (const [key, value] of Object.entries(t)) {
    if (key === 'ctx') {
      const ctx = Object.fromEntries(Object.entries(value as JudgeContext).map(([k, v]) => {
        const c = countedValue(v, count);
        if (c !== v) wrapped.push(`ctx.${k}`);
        return [k, c];
      }));
      Object.defineProperty(t, key, { value: ctx });
      continue;
    }
    const c = countedValue(value, count);
    if (c !== value) wrapped.push(key);
    Object.defineProperty(t, key, { value: c });
  }
  await judgeClientRules(t);
  await judgeServiceRules(t);
  return { reads: count.reads, exchanges: exchanges.length, parsed: envelopesParsed() - parsedBefore, soap: t.soap.length, counted: wrapped.sort() };
}

describe('judging recorded traffic', () => {
  it('reads the traffic a number of times linear in its size (×4 the exchanges: about ×4 the reads, not ×16)', async () => {
    const small = await readsToJudge(2);
    const large = await readsToJudge(8);
    // Every collection of the Traffic and its context is counted (a new one must be counted too).
    expect(small.counted).toEqual([
      'apiCalls', 'bySeq', 'ctx.expired', 'exchanges', 'issued', 'obtaining', 'obtainingIn', 'soap', 'soapByToken', 'soapOf',
      'tokenExchangesIn', 'tokenRequests', 'tokenRequestsByClient', 'useOf', 'uses', 'usesByToken', 'usesIn',
    ]);
    expect(large.exchanges).toBe(4 * small.exchanges);
    expect(small.reads).toBeGreaterThan(small.exchanges);
    expect(large.reads / small.reads).toBeLessThan(5);
  });

  it('parses each SOAP exchange once, whatever the number of rules that read it', async () => {
    const { parsed, soap } = await readsToJudge(3);
    expect(soap).toBeGreaterThan(10);
    expect(parsed).toBe(soap);
  });
});
