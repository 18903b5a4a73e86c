/**
 * The observing proxy's clock. A concurrent client's call on a connection it opened while a refusal was being
 * answered is in flight at the refusal (LIFE-03, SESS-07: not a resend), even when the connection was accepted in the
 * same millisecond as the answer ended: on a millisecond clock the two tie, and a tie reads as "sent after" (the
 * reference client's LIFE-03 then came out `partial` on a busy machine, about once in twenty observations).
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Redactor } from '../report/index.ts';
import type { HttpRequest, HttpResponse, Transport } from '../targets/index.ts';
import { sentAfterAnswer } from './client-rules.ts';
import type { ObservedExchange } from './exchange.ts';
import { startRecordingProxy, type RecordingProxy } from './proxy.ts';

const REFUSED: HttpResponse = { status: 401, headers: { 'content-type': 'application/json' }, body: '{"errorCode":"ERR.2SG.SEC.INVALID_CREDENTIALS"}', durationMs: 0 };
const get = (token: string) => `GET /v1/lists/supported/shop/themes HTTP/1.1\r\nHost: proxy\r\nAuthorization: Bearer ${token}\r\n\r\n`;

/** Opens a connection to `port` and waits until the proxy's side of it is set up. */
async function open(port: number): Promise<Socket> {
  const s = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => s.once('connect', resolve).once('error', reject));
  await new Promise<void>((resolve) => setImmediate(resolve));
  return s;
}

/** Sends `request` on `s` and waits for the whole answer (a 401 with a body of known length). */
function exchangeOn(s: Socket, request: string): Promise<void> {
  return new Promise((resolve) => {
    let got = '';
    const onData = (chunk: Buffer) => {
      got += chunk.toString('latin1');
      if (got.includes('\r\n\r\n') && got.endsWith(REFUSED.body)) {
        s.off('data', onData);
        resolve();
      }
    };
    s.on('data', onData);
    s.write(request);
  });
}

let proxy: RecordingProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

describe('the observing proxy\'s clock', () => {
  it('a connection accepted while a refusal was being answered is in flight at it, not opened after it (five rounds)', async () => {
    let during: (() => Promise<void>) | undefined;
    const transport: Transport = {
      async request(_req: HttpRequest) {
        // The upstream answers as soon as the other connection is accepted: the two land in the same millisecond.
        await during?.();
        return REFUSED;
      },
      async close() {},
    };
    proxy = await startRecordingProxy({ upstream: { cert: { restBaseUrl: 'http://upstream.invalid', soapUrl: 'http://upstream.invalid/websvc' } }, transport, redactor: new Redactor(), keepExchanges: true });
    const port = Number(new URL(proxy.urls.cert!.restBaseUrl).port);
    const first = await open(port);
    for (let round = 0; round < 5; round++) {
      let other: Socket | undefined;
      during = async () => {
        other = await open(port);
      };
      await exchangeOn(first, get(`tok-${round}`));
      during = undefined;
      // Sent only once the refusal's answer was read: the proxy cannot know that, only when the connection came.
      await exchangeOn(other!, get(`tok-${round}`));
      other!.destroy();
      const xs = proxy.exchanges();
      const refusal = xs.at(-2) as ObservedExchange;
      const later = xs.at(-1) as ObservedExchange;
      expect(later.earliestSend).toBeLessThan(refusal.endedAt);
      expect(sentAfterAnswer(later, refusal)).toBe(false);
    }
    // On its own connection, a request after the answer is after it.
    await exchangeOn(first, get('tok-last'));
    const xs = proxy.exchanges();
    expect(sentAfterAnswer(xs.at(-1) as ObservedExchange, xs.at(-3) as ObservedExchange)).toBe(true);
    first.destroy();
  });
});
