import { describe, expect, it } from 'vitest';
import { clientLatitudeVariants } from '../../fixtures/client-latitudes/index.ts';
import { latitudes } from '../../harness/catalog/latitudes.ts';
import { packageInfo } from '../support/compiled.ts';
import { useSession } from '../support/test-session.ts';

/**
 * The client side of the latitude property: the reference client taking each choice the interface document leaves a
 * client (fixtures/client-latitudes/) passes every client rule, as the reference client itself does. A check that
 * fails, warns, errors, skips or leaves a clause unchecked on one of them over-reaches.
 */
const session = useSession();

/** Client latitudes no driven variant plays: `renew-ahead` needs a week of the client's clock; traffic alone shows `conversation-per-workflow` (observe). */
const NOT_DRIVEN = new Set(['renew-ahead', 'conversation-per-workflow']);

describe('conforming client variants (client latitudes)', () => {
  it('every client latitude the suites can drive has a variant', () => {
    const driven = latitudes.filter((l) => l.side === 'client' && !NOT_DRIVEN.has(l.id)).map((l) => l.id).sort();
    expect(clientLatitudeVariants.map((v) => v.latitude).sort()).toEqual(driven);
  });

  for (const variant of clientLatitudeVariants) {
    it(`${variant.latitude}: the reference client that ${variant.description} passes every client rule`, async () => {
      const { report } = await session().run({
        target: 'sim', suite: 'client', client: { kind: 'module', path: packageInfo.codeFile(variant.module) }, runs: 2,
        outDir: '', write: false, quiet: true, log: () => {},
      });
      const client = report.rules.filter((r) => r.side === 'client');
      expect(client).toHaveLength(18);
      const notPassed = client.filter((r) => r.status !== 'pass').map((r) => `${r.id} ${r.status}: ${r.checks.filter((c) => c.status !== 'pass').map((c) => `${c.name} — ${'message' in c ? String(c.message).slice(0, 300) : ''}`).join('; ')}`);
      expect(notPassed).toEqual([]);
    }, 120_000);
  }
});
