import { describe, expect, it } from 'vitest';
import { StartOrder } from './start-order.ts';

describe('StartOrder', () => {
  it('hands items over by start, then seq, holding each only while an earlier-started request is in flight', () => {
    const out: string[] = [];
    const order = new StartOrder<string>((s) => out.push(s));
    const a = order.begin(10);
    const b = order.begin(20);
    const c = order.begin(20);
    order.complete(b, 3, 'b');
    expect(out).toEqual([]);
    order.complete(a, 1, 'a');
    expect(out).toEqual(['a']);
    order.complete(c, 2, 'c');
    expect(out).toEqual(['a', 'c', 'b']);
    expect(order.held).toBe(0);
  });

  it('hands over what was recorded past a request still in flight when told to settle, and that one when it ends', () => {
    const out: string[] = [];
    const order = new StartOrder<string>((s) => out.push(s));
    const a = order.begin(10);
    const b = order.begin(20);
    order.complete(b, 2, 'b');
    order.settle();
    expect(out).toEqual(['b']);
    order.complete(a, 1, 'a');
    expect(out).toEqual(['b', 'a']);
    expect(order.held).toBe(0);
  });

  it('skips dropped requests, and places a start the clock set back', () => {
    const out: string[] = [];
    const order = new StartOrder<string>((s) => out.push(s));
    const a = order.begin(30);
    const b = order.begin(25);
    order.drop(b);
    expect(out).toEqual([]);
    const c = order.begin(40);
    order.complete(c, 2, 'c');
    order.complete(a, 1, 'a');
    expect(out).toEqual(['a', 'c']);
  });
});
