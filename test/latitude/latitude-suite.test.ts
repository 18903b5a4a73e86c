import { describe, expect, it } from 'vitest';
import { hidden } from './latitude-suite.ts';
import { packageInfo } from '../support/compiled.ts';
import { profileWith } from '../../harness/sim/latitude.ts';
import type { Report } from '../../harness/report/index.ts';

/** A report with the given rules and checks (only what `hidden` reads). */
function report(rules: readonly { id: string; status: string; checks: readonly { name: string; status: string; message?: string; file?: string }[] }[]): Report {
  return { rules } as unknown as Report;
}
const { suiteFileKey } = packageInfo;

describe('hidden (the latitude property counts what a conforming profile hides)', () => {
  const base = report([
    { id: 'XPROTO-01', status: 'pass', checks: [{ name: 'XPROTO-01: a REST token in SOAP', status: 'pass' }] },
    { id: 'SESS-04', status: 'pass', checks: [{ name: 'SESS-04: pool', status: 'pass' }] },
    { id: 'ENV-03', status: 'skipped', checks: [{ name: 'ENV-03: only one env', status: 'skipped' }] },
    { id: 'ACCESS-01', status: 'pass', checks: [{ name: 'ACCESS-01: token kinds per API', status: 'pass' }] },
  ]);

  it('names a check that ran on the default profile and was skipped or not applicable on this one, with the profile', () => {
    const now = report([
      { id: 'XPROTO-01', status: 'skipped', checks: [{ name: 'XPROTO-01: a REST token in SOAP', status: 'skipped', message: 'prerequisite failed: no probe', file: '/x/suites/service/cross-protocol.test.ts' }] },
      { id: 'SESS-04', status: 'partial', checks: [{ name: 'SESS-04: pool', status: 'pass' }] },
      { id: 'ENV-03', status: 'skipped', checks: [{ name: 'ENV-03: only one env', status: 'skipped' }] },
      { id: 'ACCESS-01', status: 'not-applicable', checks: [{ name: 'ACCESS-01: token kinds per API', status: 'not-applicable', message: 'no API declares session tokens only', file: '/x/suites/service/access.test.ts' }] },
    ]);
    const profile = profileWith({ tokenShape: { kind: 'uuid' } });
    const found = hidden(now, base, { [suiteFileKey('/x/suites/service/access.test.ts')]: profile });
    expect(found).toHaveLength(3);
    expect(found[0]).toMatch(/^XPROTO-01 hidden \(skipped; pass on the default profile\): XPROTO-01: a REST token in SOAP — prerequisite failed: no probe\n {2}in \/x\/suites\/service\/cross-protocol\.test\.ts, on profile "default"$/);
    expect(found[1]).toBe('SESS-04 partial on a conforming profile (pass on the default one)');
    expect(found[2]).toBe(`ACCESS-01 hidden (not-applicable; pass on the default profile): ACCESS-01: token kinds per API — no API declares session tokens only\n  in /x/suites/service/access.test.ts, on profile ${JSON.stringify(profile)}`);
  });

  it('says nothing of checks that run on both, or that were skipped on the default profile too', () => {
    expect(hidden(base, base, {})).toEqual([]);
  });
});
