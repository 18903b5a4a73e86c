import type { Throttling } from './model.ts';

/** The report's line on throttling: how many answers were throttled, the time waited, the pace the run ended at. */
export function throttlingLine(t: Throttling): string {
  const resent = Object.entries(t.gatewayResent ?? {});
  const gateway = resent.length === 0 ? '' : `; gateway errors resent: ${resent.map(([s, n]) => `${n} × ${s}`).join(', ')}`;
  if (t.throttled === 0) return `throttling: none met${gateway}`;
  const statuses = Object.entries(t.statuses).map(([s, n]) => `${n} × ${s === 'busy' ? 'busy fault' : s}`).join(', ');
  const after = t.retryAfter.length > 0 ? `; Retry-After ${t.retryAfter.join(', ')}` : '; no Retry-After';
  const pace = t.endIntervalMs > 0 ? `ended paced at one request per ${t.endIntervalMs} ms` : 'ended at full pace';
  const gaveUp = t.gaveUp > 0 ? `; ${t.gaveUp} request${t.gaveUp === 1 ? '' : 's'} still throttled after the wait (RATE_LIMITED)` : '';
  return `throttling: ${t.throttled} answer${t.throttled === 1 ? '' : 's'} throttled (${statuses}${after}), ${(t.waitedMs / 1000).toFixed(1)} s waited, ${pace}${gaveUp}${gateway}`;
}
