/**
 * What the running judge holds does not grow with conforming traffic: judged on 20 and on 100 copies of the reference
 * client's recorded workload (each with tokens and sessions of its own), it holds no more after 100 than after 20,
 * each of its stores within its bound, and gives the batch judge's verdicts all the same. Counts, no heap measure.
 */
import { describe, expect, it } from 'vitest';
import type { ObservedExchange } from './exchange.ts';
import { judgeTraffic } from './judge.ts';
import { RunningJudge, type RetainedState } from './running-judge.ts';
import { conformingContext, replicated } from '../../test/support/replicated-traffic.ts';

const inOrder = (xs: readonly ObservedExchange[]) => [...xs].sort((a, b) => a.startedAt - b.startedAt || a.seq - b.seq);

/** Small bounds, so that a short traffic reaches them. */
const TOKENS_KEPT = 16;
const REFUSALS_KEPT = 4;

async function judged(copies: number): Promise<{ retained: RetainedState; peak: RetainedState; same: boolean }> {
  const { exchanges, expired } = replicated(copies);
  const running = new RunningJudge(conformingContext(expired), { tokensKept: TOKENS_KEPT, refusalsKept: REFUSALS_KEPT });
  // No validator will come (as without a JDK): no envelope waits for one.
  running.attachValidator(undefined);
  const peak: Record<string, number> = {};
  for (const x of inOrder(exchanges)) {
    running.add(x);
    for (const [k, v] of Object.entries(running.retained())) peak[k] = Math.max(peak[k] ?? 0, v);
  }
  const streamed = await running.finish();
  const batch = await judgeTraffic(exchanges, conformingContext(expired));
  return { retained: running.retained(), peak: peak as unknown as RetainedState, same: JSON.stringify(streamed.verdicts) === JSON.stringify(batch.verdicts) };
}

describe('the running judge on conforming traffic', () => {
  it('holds no more after five times the traffic, each store within its bound, and judges it as the batch judge does', async () => {
    const small = await judged(20);
    const large = await judged(100);
    expect(large.same).toBe(true);
    expect(small.same).toBe(true);
    expect(large.retained.tokensForgotten).toBeGreaterThan(small.retained.tokensForgotten);
    for (const key of ['tokens', 'clients', 'refusals', 'validationsWaiting'] as const) {
      expect({ [key]: large.peak[key] }).toEqual({ [key]: small.peak[key] });
    }
    // SESS-08's spans are pruned when they double: their peak varies a little with when that falls, not with the traffic.
    expect(large.peak.sessions).toBeLessThanOrEqual(2 * small.peak.sessions);
    expect(large.peak.refusals).toBeLessThanOrEqual(2 * REFUSALS_KEPT);
    expect(large.peak.tokens).toBeLessThanOrEqual(TOKENS_KEPT + 1);
  });
});
