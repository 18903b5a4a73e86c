import { fc, test } from '../../test/support/property-test.ts';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SLOT_RELEASE_MS } from './config.ts';
import { releasePauses } from './slot-release.ts';

describe('releasePauses', () => {
  it('waits 3 s by default in five doubling pauses, and not at all for a service that releases at once', () => {
    expect(releasePauses(DEFAULT_SLOT_RELEASE_MS)).toEqual([100, 200, 400, 800, 1_500]);
    expect(releasePauses(0)).toEqual([]);
    expect(releasePauses(50)).toEqual([50]);
    expect(releasePauses(250)).toEqual([100, 150]);
  });

  test.prop([fc.integer({ min: 0, max: 600_000 })])('adds up to the declared time: doubling from 0.1 s, the last pause what is left', (total) => {
    const pauses = releasePauses(total);
    expect(pauses.reduce((a, b) => a + b, 0)).toBe(total);
    pauses.slice(0, -1).forEach((p, i) => expect(p).toBe(100 * 2 ** i));
    // The last is at least the one before it and less than two doublings of it: no pause of a few milliseconds after a
    // long one.
    if (pauses.length > 0) {
      const last = pauses.at(-1)!;
      expect(last).toBeGreaterThan(0);
      expect(last).toBeLessThan(2 * 100 * 2 ** (pauses.length - 1));
      if (pauses.length > 1) expect(last).toBeGreaterThanOrEqual(pauses.at(-2)!);
    }
  });
});
