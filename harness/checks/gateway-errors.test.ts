import { afterEach, describe, expect, it } from 'vitest';
import { createSimTarget, type HttpRequest, type Target, type Transport } from '../targets/index.ts';
import { throttledTransport } from '../targets/throttle.ts';
import { callRest, restAnswer, settled } from './probe.ts';
import type { CheckContext } from './rule-test.ts';
import { sessionCreate, sessionLedger, sessionClose } from './soap.ts';

const targets: Target[] = [];
afterEach(async () => {
  for (const t of targets.splice(0)) await t.close();
});

const PAGE = { status: 502, headers: { 'content-type': 'text/html' }, body: '<html><body><h1>502 Bad Gateway</h1></body></html>', durationMs: 1 };

/** The simulator behind a gateway that answers the requests `fails` picks with its 502 page; every request counted. */
async function behindGateway(fails: (req: HttpRequest, n: number) => boolean): Promise<{ ctx: CheckContext; sent: HttpRequest[] }> {
  const sim = await createSimTarget({ seed: 7 });
  targets.push(sim);
  const sent: HttpRequest[] = [];
  const gateway: Transport = {
    async request(req) {
      sent.push(req);
      return fails(req, sent.length) ? PAGE : sim.transport.request(req);
    },
    close: () => sim.transport.close(),
  };
  const http = throttledTransport(gateway, { baseBackoffMs: 2 });
  const target = { ...sim, transport: http };
  const ctx: CheckContext = {
    target, http, info() {}, note() {}, resetEvidence() {}, created() {}, unchecked() {},
    notApplicable(reason: string): never { throw new Error(reason); },
    requireOptIn() {},
  };
  return { ctx, sent };
}

const isCreate = (req: HttpRequest) => /<(?:[\w.-]+:)?Action>SessionCreateRQ</.test(req.body ?? '');

describe('a gateway\'s errors (502, 504) on the way to the service', () => {
  it('a SessionCreateRQ the gateway answered is sent again, and each page is counted as a session that may be hidden behind it', async () => {
    let creates = 0;
    const { ctx, sent } = await behindGateway((req) => isCreate(req) && ++creates === 1);
    const pcc = ctx.target.accounts.cert!.pcc;
    const before = sessionLedger('cert', pcc);
    const x = await sessionCreate(ctx, 'cert');
    expect([x.response.status, x.response.resent, x.session !== undefined]).toEqual([200, 1, true]);
    expect(sent.filter(isCreate)).toHaveLength(2);
    expect(sessionLedger('cert', pcc).hidden - before.hidden).toBe(1);
    expect((await sessionClose(ctx, x.session!)).confirmed).toBe(true);
  });

  it('a page that came back on each of the transport\'s resends is reproduced: the probe does not send it a fourth time', async () => {
    const { ctx, sent } = await behindGateway((req) => req.url.includes('/v1/'));
    const r = await callRest(ctx, 'cert', 'Bearer x');
    expect([r.response.status, r.response.resent, sent.length]).toEqual([502, 2, 3]);
    const judged = await settled(restAnswer(r));
    expect(judged.reproduced).toBe(true);
    expect(sent).toHaveLength(3);
  });
});
