import { describe, expect, it } from 'vitest';
import { ConsultedSet, consultedList } from './consulted-set.ts';

describe('ConsultedSet', () => {
  it('gives who switched the deviations on their list without counting it as asking', () => {
    const set = new ConsultedSet<string>(['b', 'a']);
    expect([...set.switchedOn].sort()).toEqual(['a', 'b']);
    expect(set.consulted).toEqual(new Set());
    set.has('c');
    expect(consultedList(set.consulted)).toEqual(['c']);
  });

  it('is a set of its own: changing the list it was made from changes nothing', () => {
    const on = ['a'];
    const set = new ConsultedSet<string>(on);
    on.push('b');
    expect(set.has('b')).toBe(false);
  });

  it('lists what was asked sorted, `all` as such, and nothing for no set', () => {
    const set = new ConsultedSet<string>([]);
    set.has('z');
    set.has('a');
    expect(consultedList(set.consulted)).toEqual(['a', 'z']);
    void set.size;
    expect(consultedList(set.consulted)).toBe('all');
    expect(consultedList(undefined)).toEqual([]);
  });
});
