import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../sim/clock.ts';
import { SimCore } from '../sim/core.ts';
import { defaultAccounts } from '../sim/default-accounts.ts';
import type { ObservedExchange } from './exchange.ts';
import { Injector, OVERLAP_HOLD_MS, parseInjections } from './inject.ts';
import type { PendingRequest } from './proxy.ts';

const THEMES = '/v1/lists/supported/shop/themes';

/** An injector with `overlap-first-calls`, which has seen the REST tokens `tokens` issued, in that order. */
function overlapping(...tokens: string[]): Injector {
  const core = new SimCore({ clock: new ManualClock(), accounts: defaultAccounts(1).accounts });
  const injector = new Injector(core, parseInjections(['overlap-first-calls']));
  tokens.forEach((token, i) => injector.after({
    seq: i + 1, env: 'cert', protocol: 'rest', startedAt: 0, endedAt: 0,
    request: { method: 'POST', url: '/v2/auth/token', path: '/v2/auth/token', headers: {}, body: 'grant_type=client_credentials' },
    response: { status: 200, headers: {}, body: JSON.stringify({ access_token: token, token_type: 'bearer', expires_in: 604800 }) },
  } satisfies ObservedExchange));
  return injector;
}

const call = (token: string): PendingRequest => ({ env: 'cert', protocol: 'rest', method: 'GET', path: THEMES, headers: { authorization: `Bearer ${token}` }, body: '' });

/** Whether `held` has settled once the pending callbacks ran. */
async function settled(held: Promise<void> | void): Promise<boolean> {
  let done = false;
  void Promise.resolve(held).then(() => (done = true));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('overlap-first-calls (API-05 decidable on a loaded machine)', () => {
  it('holds the first call with the first token until a second call with it arrives, and holds nothing else', async () => {
    const injector = overlapping('T-first', 'T-second');
    const first = injector.before(call('T-first'));
    expect(first).toBeInstanceOf(Promise);
    expect(await settled(first)).toBe(false);
    expect(injector.before(call('T-second'))).toBeUndefined();
    expect(await settled(first)).toBe(false);
    expect(injector.before(call('T-first'))).toBeUndefined();
    expect(await settled(first)).toBe(true);
    expect(injector.before(call('T-first'))).toBeUndefined();
  });

  it(`lets the first call go after ${OVERLAP_HOLD_MS} ms when no second call comes, and when the observation closes`, async () => {
    vi.useFakeTimers();
    const alone = overlapping('T-alone').before(call('T-alone'));
    vi.advanceTimersByTime(OVERLAP_HOLD_MS - 1);
    expect(await settled(alone)).toBe(false);
    vi.advanceTimersByTime(1);
    expect(await settled(alone)).toBe(true);

    const closing = overlapping('T-closed');
    const held = closing.before(call('T-closed'));
    closing.close();
    expect(await settled(held)).toBe(true);
  });
});
