import { describe, expect, it } from 'vitest';
import { applyBaseline } from './baseline.ts';
import { buildReport } from './build.ts';
import { applyGate } from './gate.ts';
import type { Report } from './model.ts';
import { buildOptions, failed, record } from '../../test/support/report.ts';

/** REST-02 passes, LIFE-01 is not applicable, SESS-04 is skipped (opt-in), ERR-02 is partial, REST-03 fails. */
function report(failing = false): Report {
  return buildReport([
    record('REST-02: source_ip is optional'),
    record('LIFE-01: a token expires after its lifetime', { state: 'skipped', meta: { outcome: { kind: 'not-applicable', reason: 'no clock control' } } }),
    record('SESS-04: the pool fills', { state: 'skipped', meta: { outcome: { kind: 'skipped', reason: 'opt-in: run with --allow-opt-in' } } }),
    record('ERR-02: a wrong password', { meta: { clauses: { declared: ['ERR-02.invalid-client', 'ERR-02.distinguishable'], unchecked: [{ id: 'ERR-02.distinguishable', reason: 'no description given' }] } } }),
    ...(failing ? [failed('REST-03: a valid request gets a token', 'unexpected "token_type" value')] : [record('REST-03: a valid request gets a token')]),
  ], { ...buildOptions, selection: ['REST-02', 'LIFE-01', 'SESS-04', 'ERR-02', 'REST-03'] });
}

describe('applyGate (--require-checked)', () => {
  it('fails the run on every selected rule that ended not-applicable, skipped or partial, naming each and what to do', () => {
    const before = report();
    expect(before.exitCode).toBe(0);
    expect(before.rules.find((r) => r.id === 'ERR-02')?.status).toBe('partial');
    const { report: gated, exitCode, messages } = applyGate(before, [], 'known.json');
    expect(exitCode).toBe(1);
    expect(gated.exitCode).toBe(1);
    expect(gated.gate?.unchecked.map((u) => `${u.rule} ${u.status}`)).toEqual(['LIFE-01 not-applicable', 'SESS-04 skipped', 'ERR-02 partial']);
    expect(messages[0]).toBe('LIFE-01 ended not-applicable (no clock control): --require-checked needs every selected rule checked; '
      + 'make the target able to check it, or list it under "expectedSkips" with a reason in known.json');
    expect(messages[2]).toMatch(/^ERR-02 ended partial \(unchecked on this target: .*ERR-02\.distinguishable \(no description given\)\): --require-checked/);
    // Rules not selected are not the gate's business.
    expect(gated.gate?.unchecked.some((u) => u.rule === 'CRED-01')).toBe(false);
  });

  it('accepts the expected skips of the baseline, shows them apart with their reason, and notes one checked after all', () => {
    const { report: gated, exitCode } = applyGate(report(), [
      { rule: 'LIFE-01', reason: 'CERT has no clock control' },
      { rule: 'SESS-04', reason: 'the shared pool is not ours to fill' },
      { rule: 'ERR-02', reason: 'CERT gives no description' },
      { rule: 'REST-02', reason: 'stale entry' },
    ]);
    expect(exitCode).toBe(0);
    expect(gated.gate?.unchecked).toEqual([]);
    expect(gated.gate?.expectedSkips).toEqual([
      { rule: 'LIFE-01', status: 'not-applicable', reason: 'CERT has no clock control' },
      { rule: 'SESS-04', status: 'skipped', reason: 'the shared pool is not ours to fill' },
      { rule: 'ERR-02', status: 'partial', reason: 'CERT gives no description' },
    ]);
    expect(gated.gate?.checkedAnyway).toEqual(['REST-02']);
    expect(gated.rules.filter((r) => r.expectedSkip).map((r) => r.id)).toEqual(['LIFE-01', 'SESS-04', 'ERR-02']);
  });

  it('keeps a failing run failing, and a known failure known: the gate only adds', () => {
    const failing = applyBaseline(report(true), { knownFailures: [{ rule: 'REST-03' }] }, 'known.json').report;
    expect(failing.exitCode).toBe(0);
    const { exitCode, report: gated } = applyGate(failing, [{ rule: 'LIFE-01', reason: 'r' }, { rule: 'SESS-04', reason: 'r' }, { rule: 'ERR-02', reason: 'r' }]);
    expect(exitCode).toBe(0);
    expect(gated.baseline?.knownFailures).toEqual(['REST-03']);
    expect(applyGate(report(true), []).exitCode).toBe(1);
  });
});
