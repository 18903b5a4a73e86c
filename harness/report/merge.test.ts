import { describe, expect, it } from 'vitest';
import { rules as catalog } from '../catalog/index.ts';
import { buildReport } from './build.ts';
import { mergeShards } from './merge.ts';
import type { Report } from './model.ts';
import { buildOptions, record } from '../../test/support/report.ts';

describe('mergeShards: rules not selected', () => {
  it('counts the rules no shard selected apart from the rules skipped for a reason, also in reports written before the count', () => {
    const a = buildReport([record('REST-03: a')], { ...buildOptions, selection: ['REST-03', 'REST-04'] });
    const b = buildReport([], { ...buildOptions, selection: ['REST-03', 'REST-04'] });
    const merged = mergeShards([a, b]);
    expect(merged.summary).toMatchObject({ pass: 1, skipped: 1, notSelected: catalog.length - 2 });
    expect(merged.rules.find((r) => r.id === 'REST-05')).toMatchObject({ status: 'skipped', reason: 'not selected', notSelected: true });

    // A report of an earlier version: no `notSelected` on the rules nor in the summary.
    const old = (r: Report): Report => JSON.parse(JSON.stringify(r, (key, value: unknown) => (key === 'notSelected' ? undefined : value))) as Report;
    expect(mergeShards([old(a), old(b)]).summary).toEqual(merged.summary);
  });

  it('keeps a rule one shard selected (without a check) rather than the other shard\'s "not selected"', () => {
    const a = buildReport([record('REST-03: a')], { ...buildOptions, selection: ['REST-03'] });
    const b = buildReport([], { ...buildOptions, selection: ['REST-03', 'REST-04'], notYetCovered: { 'REST-04': 'issue 99' } });
    const merged = mergeShards([a, b]);
    expect(merged.rules.find((r) => r.id === 'REST-04')).toMatchObject({ status: 'skipped', reason: 'not covered yet: issue 99' });
    expect(merged.rules.find((r) => r.id === 'REST-04')).not.toHaveProperty('notSelected');
    expect(merged.summary).toMatchObject({ pass: 1, skipped: 1, notSelected: catalog.length - 2 });
  });
});
