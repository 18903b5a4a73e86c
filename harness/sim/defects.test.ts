import { describe, expect, it } from 'vitest';
import { mutants } from '../../fixtures/mutants/index.ts';
import { rules } from '../catalog/index.ts';
import { ConsultedDefects, defects, defectsBreaking, parseDefects, UnknownDefectError } from './defects.ts';

describe('every check can fail', () => {
  it('each service rule has a simulator defect that breaks it', () => {
    expect(rules.filter((r) => r.side === 'service' && defectsBreaking(r.id).length === 0).map((r) => r.id)).toEqual([]);
  });

  it('each client rule has a mutant client that breaks it', () => {
    expect(rules.filter((r) => r.side === 'client' && !mutants.some((m) => m.breaks.includes(r.id))).map((r) => r.id)).toEqual([]);
  });

  it('defect IDs are unique and name the rule they break first', () => {
    expect(new Set(defects.map((d) => d.id)).size).toBe(defects.length);
    for (const d of defects) expect(d.id.startsWith(d.breaks[0]!.toLowerCase().replace('-', ''))).toBe(true);
  });

  it('refuses an unknown defect with its name and the known ones', () => {
    expect(() => parseDefects(['rest03-token-type-capitalized', 'no-such-defect'])).toThrow(UnknownDefectError);
    expect(() => parseDefects(['no-such-defect'])).toThrow(/^unknown simulator defect "no-such-defect"; known defects: cred03-latin1-decoding, /);
  });
});

describe('ConsultedDefects', () => {
  it('answers as the set does and remembers each defect asked about, switched on or not', () => {
    const set = new ConsultedDefects(parseDefects(['rest03-token-type-capitalized']));
    expect(set.consulted).toEqual(new Set());
    expect(set.has('rest03-token-type-capitalized')).toBe(true);
    expect(set.has('sess04-no-pool-limit')).toBe(false);
    expect(set.consulted).toEqual(new Set(['rest03-token-type-capitalized', 'sess04-no-pool-limit']));
  });

  it('counts any other read of the set (size, members) as asking about every defect', () => {
    const reads: ((s: ConsultedDefects) => unknown)[] = [(s) => s.size, (s) => [...s], (s) => s.forEach(() => undefined), (s) => [...s.keys()], (s) => [...s.values()], (s) => [...s.entries()]];
    for (const read of reads) {
      const set = new ConsultedDefects(parseDefects(['rest03-token-type-capitalized']));
      read(set);
      expect(set.consulted).toBe('all');
    }
    expect([...new ConsultedDefects(parseDefects(['rest03-token-type-capitalized', 'sess04-no-pool-limit']))]).toEqual(['rest03-token-type-capitalized', 'sess04-no-pool-limit']);
  });
});
