import { describe, expect, it } from 'vitest';
import { hidden } from './latitude-suite.ts';
import type { Report } from '../../harness/report/index.ts';

/** A report with the given rules and checks (only what `hidden` reads). */
function report(rules: readonly { id: string; status: string; checks: readonly { name: string; status: string; message?: string; file?: string }[] }[]): Report {
  return { rules } as unknown as Report;
}

describe('hidden (the latitude property counts what a conforming profile hides)', () => {
  const base = report([
    { id: 'XPROTO-01', status: 'pass', checks: [{ name: 'XPROTO-01: a REST token in SOAP', status: 'pass' }] },
    { id: 'SESS-04', status: 'pass', checks: [{ name: 'SESS-04: pool', status: 'pass' }] },
    { id: 'ENV-03', status: 'skipped', checks: [{ name: 'ENV-03: only one env', status: 'skipped' }] },
  ]);

  it('names a check that ran on the default profile and was skipped or not applicable on this one, with the profile', () => {
    const now = report([
      { id: 'XPROTO-01', status: 'skipped', checks: [{ name: 'XPROTO-01: a REST token in SOAP', status: 'skipped', message: 'prerequisite failed: no probe', file: '/x/suites/service/cross-protocol.test.ts' }] },
      { id: 'SESS-04', status: 'partial', checks: [{ name: 'SESS-04: pool', status: 'pass' }] },
      { id: 'ENV-03', status: 'skipped', checks: [{ name: 'ENV-03: only one env', status: 'skipped' }] },
    ]);
    const found = hidden(now, base, {});
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^XPROTO-01 hidden \(skipped; pass on the default profile\): XPROTO-01: a REST token in SOAP — prerequisite failed: no probe/);
    expect(found[1]).toBe('SESS-04 partial on a conforming profile (pass on the default one)');
  });

  it('says nothing of checks that run on both, or that were skipped on the default profile too', () => {
    expect(hidden(base, base, {})).toEqual([]);
  });
});
