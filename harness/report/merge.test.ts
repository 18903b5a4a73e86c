import { describe, expect, it } from 'vitest';
import { rules as catalog } from '../catalog/index.ts';
import { buildReport } from './build.ts';
import { judgeMerged, mergeShards, missingShards } from './merge.ts';
import { renderHtml } from './html.ts';
import { renderMarkdown } from './markdown.ts';
import type { Report } from './model.ts';
import { buildOptions, failed, record } from '../../test/support/report.ts';
import { applyBaseline } from './baseline.ts';

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

describe('the certification gate of a sharded run', () => {
  const selection = ['REST-03', 'REST-04', 'REST-05'] as const;
  /** A shard that ran `ids`' checks, with the gate left to the merge (as `run --shard … --require-checked` leaves it). */
  const shard = (index: number, ids: readonly string[], expectedSkips: { rule: 'REST-05'; reason: string }[] = []): Report => ({
    ...buildReport(ids.map((id) => record(`${id}: a`)), { ...buildOptions, selection: [...selection] }),
    shard: { index, count: 2 },
    deferredGate: { expectedSkips, baselineFile: 'baseline.json' },
  });

  it('each shard leaves it to the merge, which applies it to the whole run: every rule checked in some shard passes it', () => {
    const a = shard(1, ['REST-03']);
    const b = shard(2, ['REST-04', 'REST-05']);
    // Alone, each shard has rules it did not check (they are the other shard's).
    expect(a.summary.skipped).toBe(2);
    const { report, messages } = judgeMerged(mergeShards([a, b]), [a, b]);
    expect(messages).toEqual([]);
    expect(report.gate).toMatchObject({ unchecked: [] });
    expect(report.exitCode).toBe(0);
    // The merged report is the whole run's: no shard, nothing left to the merge.
    expect(report).not.toHaveProperty('shard');
    expect(report).not.toHaveProperty('deferredGate');
  });

  it('fails the merged run on a rule no shard checked, unless a shard\'s baseline expects it skipped', () => {
    const a = shard(1, ['REST-03']);
    const b = shard(2, ['REST-04']);
    const failed = judgeMerged(mergeShards([a, b]), [a, b]);
    expect(failed.report.exitCode).toBe(1);
    expect(failed.report.gate?.unchecked.map((u) => u.rule)).toEqual(['REST-05']);
    expect(failed.messages[0]).toContain('REST-05 ended skipped');
    expect(failed.messages[0]).toContain('baseline.json');

    const skipping = shard(2, ['REST-04'], [{ rule: 'REST-05', reason: 'the test account cannot' }]);
    const accepted = judgeMerged(mergeShards([a, skipping]), [a, skipping]);
    expect(accepted.report.exitCode).toBe(0);
    expect(accepted.report.gate?.expectedSkips).toEqual([{ rule: 'REST-05', status: 'skipped', reason: 'the test account cannot' }]);
  });

  it('with merge --baseline, takes that baseline\'s requireChecked and expected skips, as one run with it would', () => {
    const plain = (r: Report): Report => {
      const { deferredGate: _d, ...rest } = r;
      return rest;
    };
    const a = plain(shard(1, ['REST-03']));
    const b = plain(shard(2, ['REST-04']));
    const merged = mergeShards([a, b]);
    const given = { file: 'merge-baseline.json', baseline: { knownFailures: [], requireChecked: true, expectedSkips: [{ rule: 'REST-05' as const, reason: 'not on CERT' }] } };
    const { report, messages } = judgeMerged(merged, [a, b], false, given);
    expect(messages).toEqual([]);
    expect(report.exitCode).toBe(0);
    expect(report.gate?.expectedSkips).toEqual([{ rule: 'REST-05', status: 'skipped', reason: 'not on CERT' }]);
    // The same file without the expected skip: the gate is on by its requireChecked, and fails on REST-05.
    const strict = judgeMerged(merged, [a, b], false, { ...given, baseline: { knownFailures: [], requireChecked: true } });
    expect(strict.report.exitCode).toBe(1);
    expect(strict.messages[0]).toContain('merge-baseline.json');
  });

  it('is off when no shard asked for it, unless the merge does (merge --require-checked); a shard\'s own gate summary is not carried over', () => {
    const plain = (r: Report): Report => {
      const { deferredGate: _d, ...rest } = r;
      return { ...rest, gate: { unchecked: [], expectedSkips: [], checkedAnyway: [], messages: ['a shard\'s message'] } };
    };
    const a = plain(shard(1, ['REST-03']));
    const b = plain(shard(2, ['REST-04']));
    const merged = mergeShards([a, b]);
    expect(merged).not.toHaveProperty('gate');
    expect(judgeMerged(merged, [a, b]).report).toBe(merged);
    const forced = judgeMerged(merged, [a, b], true);
    expect(forced.report.exitCode).toBe(1);
    expect(forced.report.gate?.unchecked.map((u) => u.rule)).toEqual(['REST-05']);
  });

  it('a shard\'s report.md and report.html say the gate is left to the merge', () => {
    const a = shard(1, ['REST-03']);
    expect(renderMarkdown(a)).toContain("Left to `tds-conformance merge`: this run is shard 1/2 of the suites' files");
    expect(renderHtml(a)).toContain('Left to <code>tds-conformance merge</code>: this run is shard 1/2');
    const { deferredGate: _d, ...ungated } = a;
    expect(renderMarkdown(ungated)).not.toContain('Certification gate');
  });

  it('judges the merged rules by a shard\'s baseline again: a known failure is excused, a listed rule that passed in every shard is an unexpected pass', () => {
    const baseline = { knownFailures: [{ rule: 'REST-03' as const, reason: 'ticket 1' }, { rule: 'REST-04' as const }] };
    /** A shard with the baseline applied to it alone, as `run --shard … --baseline` writes it. */
    const shardWith = (index: number, records: Parameters<typeof buildReport>[0]): Report => {
      const alone = buildReport(records, { ...buildOptions, selection: [...selection] });
      return { ...applyBaseline(alone, baseline, 'baseline.json').report, shard: { index, count: 2 }, deferredBaseline: { file: 'baseline.json', baseline } };
    };
    // REST-03 fails in shard 1 only; REST-04 passes in both.
    const a = shardWith(1, [failed('REST-03: a', 'token_type "Bearer"'), record('REST-04: a')]);
    const b = shardWith(2, [record('REST-03: b'), record('REST-04: b'), record('REST-05: b')]);
    const merged = mergeShards([a, b]);
    // Merged without the baseline, REST-03 fails the run; the shard's own marks are not carried over.
    expect(merged.exitCode).toBe(1);
    expect(merged.rules.find((r) => r.id === 'REST-03')).not.toHaveProperty('knownFailure');
    const { report, messages } = judgeMerged(merged, [a, b]);
    expect(report.baseline).toMatchObject({ file: 'baseline.json', knownFailures: ['REST-03'], unexpectedPasses: ['REST-04'] });
    expect(report.rules.find((r) => r.id === 'REST-03')).toMatchObject({ knownFailure: true });
    expect(messages).toHaveLength(1);
    expect(report.exitCode).toBe(1);
    // Without the REST-04 entry, the known failure alone does not fail the merged run.
    const fixed = { knownFailures: [baseline.knownFailures[0]!] };
    const withFixed = (r: Report): Report => ({ ...r, deferredBaseline: { file: 'baseline.json', baseline: fixed } });
    expect(judgeMerged(merged, [withFixed(a), withFixed(b)]).report.exitCode).toBe(0);
  });

  it('a shard says a rule it ran no check of has them in the other shards; merged without their shard, the report says so', () => {
    const only = (index: number, ids: readonly string[]) =>
      buildReport(ids.map((id) => record(`${id}: a`)), { ...buildOptions, selection: [...selection], shard: { index, count: 3 } });
    const first = only(1, ['REST-03']);
    expect(first.rules.find((r) => r.id === 'REST-04')?.reason).toBe('no check of it ran in this shard (--shard 1/3): its checks are in the files of the other shards');
    // Not a shard: the rule has no check at all.
    expect(buildReport([], { ...buildOptions, selection: [...selection] }).rules.find((r) => r.id === 'REST-04')?.reason).toBe('no check verifies this rule yet');
    // Shards 1 and 2 of 3: REST-05's checks were in shard 3.
    const merged = mergeShards([first, only(2, ['REST-04'])]);
    expect(merged.rules.find((r) => r.id === 'REST-05')).toMatchObject({ status: 'skipped', reason: 'no check of it ran in the shards merged: its files are in a shard not given' });
    expect(merged.rules.find((r) => r.id === 'REST-04')?.status).toBe('pass');
  });

  it('says which shards of a run are missing', () => {
    const three = (index: number): Report => ({ ...shard(index, []), shard: { index, count: 3 } });
    expect(missingShards([three(1), three(2), three(3)])).toBeUndefined();
    expect(missingShards([three(3), three(1)])).toBe('shard 2/3 not given: the checks of its files are missing from the merged report');
    expect(missingShards([three(2)])).toBe('shards 1/3, 3/3 not given: the checks of their files are missing from the merged report');
    const { shard: _s, ...unsharded } = three(1);
    expect(missingShards([unsharded])).toBeUndefined();
  });

  it('refuses shards of different splits of the files', () => {
    expect(() => mergeShards([shard(1, ['REST-03']), { ...shard(2, ['REST-04']), shard: { index: 2, count: 3 } }]))
      .toThrow("the reports of simulator come from different splits of the suites' files (--shard i/2 and i/3); the shards of one run share its count");
  });
});
