import { afterEach, describe, expect, it } from 'vitest';
import { buildResponse, faultBody, parseEnvelope, replyToOf, tokenCreateRSBody } from '../soap/index.ts';
import { createSimTarget, type Target, type Transport } from '../targets/index.ts';
import { callRest, callSessionProbe, expectAccepted, expectRefused, rest, restAnswer, SERVER_ERROR_RESENDS, soap, soapProbe } from './probe.ts';
import { CheckFailure } from './failure.ts';
import { Inconclusive, PrerequisiteFailed } from './errors.ts';
import type { CheckContext } from './rule-test.ts';
import { openSession } from './soap.ts';

const targets: Target[] = [];
afterEach(async () => {
  for (const t of targets.splice(0)) await t.close();
});

/** A check context over a target, without a test around it. */
function contextOf(target: Target): CheckContext {
  return {
    target, http: target.transport, info() {}, note() {}, resetEvidence() {}, created() {}, unchecked() {},
    notApplicable(reason: string): never { throw new Error(reason); },
    requireOptIn() {},
  };
}

async function simWith(probes: Partial<Target['probes']>, declared: readonly (keyof Target['probes'])[] = []): Promise<CheckContext> {
  const sim = await createSimTarget();
  targets.push(sim);
  return contextOf({ ...sim, probes: { ...sim.probes, ...probes }, declaredProbes: declared });
}

describe('soapProbe', () => {
  it('uses a declared probe as it is, without trying it', async () => {
    const ctx = await simWith({ soapSession: { action: 'NoSuchRQ' } }, ['soapSession']);
    expect(await soapProbe(ctx, 'soapSession')).toEqual({ action: 'NoSuchRQ' });
  });

  it('finds another action when the service does not offer the default one', async () => {
    const ctx = await simWith({ soapSession: { action: 'NoSuchRQ' }, soapSessionless: { action: 'NoSuchEitherRQ' } });
    expect(await soapProbe(ctx, 'soapSession')).toEqual({ action: 'OTA_PingRQ' });
    // A session-only action is no sessionless probe: the first that takes a TokenCreateRQ token is.
    expect(await soapProbe(ctx, 'soapSessionless')).toEqual({ action: 'BargainFinderMaxRQ' });
    const session = await openSession(ctx, 'cert');
    expect((await callSessionProbe(ctx, 'cert', session.token, session.conversationId)).answer.kind).toBe('success');
  });

  it('is inconclusive, saying what each candidate answered, when no action takes the token', async () => {
    const ctx = await fakeSoapService('Client.InvalidAction', 'Unsupported action');
    const err = await soapProbe(ctx, 'soapSessionless').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Inconclusive);
    expect((err as Error).message).toMatch(/^no SOAP action the harness knows answered a fresh sessionless token with a success \(BargainFinderMaxRQ: a fault saying the action is unknown \(Client\.InvalidAction: Unsupported action\); OTA_PingRQ: .*\); declare in the target config, as "probes\.soapSessionless"/);
  });

  it('blames the token, not the actions, when every action refuses it as invalid', async () => {
    const ctx = await fakeSoapService('Client.InvalidSecurityToken', 'Invalid or Expired binary security token: x');
    const err = await soapProbe(ctx, 'soapSessionless').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PrerequisiteFailed);
    expect((err as PrerequisiteFailed).after).toEqual(['LIFE-02', 'STOK-01']);
  });
});

/** A SOAP service that issues tokens and answers every other action with the same fault. */
async function fakeSoapService(faultcode: string, faultstring: string): Promise<CheckContext> {
  const sim = await createSimTarget();
  targets.push(sim);
  const transport: Transport = {
    async request(req) {
      const parsed = parseEnvelope(req.body ?? '');
      if (!parsed.ok) throw new Error(parsed.message);
      const e = parsed.envelope;
      const inReplyTo = replyToOf(e.messageHeader, { from: 'c', to: 's', cpaId: 'X', conversationId: 'c1' });
      const header = { inReplyTo, messageId: '1', timestamp: new Date(0) };
      const body = e.action === 'TokenCreateRQ'
        ? buildResponse({ header: { ...header, action: 'TokenCreateRS' }, security: { kind: 'binarySecurityToken', token: 'T1RLAQfake*' }, body: tokenCreateRSBody() })
        : buildResponse({ header: { ...header, action: 'ErrorRS' }, security: { kind: 'empty' }, body: faultBody({ faultcode, faultstring }) });
      return { status: e.action === 'TokenCreateRQ' ? 200 : 500, headers: { 'content-type': 'text/xml' }, body, durationMs: 1 };
    },
    async close() {},
  };
  return contextOf({ ...sim, transport, declared: { tokenKinds: {} } });
}

describe('expectAccepted and expectRefused', () => {
  it('decide on a success or a refusal, and are inconclusive on anything else', async () => {
    await expect(expectAccepted(rest({ kind: 'success', status: 200 }), 'x', 'hint')).resolves.toBeUndefined();
    await expect(expectAccepted(rest({ kind: 'refused', status: 401 }), 'x', 'hint')).rejects.toThrow(CheckFailure);
    await expect(expectAccepted(rest({ kind: 'not-found', status: 404 }), 'x', 'hint')).rejects.toThrow(Inconclusive);
    await expect(expectRefused(soap({ kind: 'refused', why: 'invalid-token', code: 'Client.InvalidSecurityToken', faultstring: '' }), 'x', 'hint')).resolves.toBeUndefined();
    await expect(expectRefused(soap({ kind: 'success', action: 'X' }), 'x', 'hint')).rejects.toThrow(CheckFailure);
    await expect(expectRefused(soap({ kind: 'unknown-action', code: 'Client.InvalidAction', faultstring: '' }), 'x', 'hint')).rejects.toThrow(/Client.InvalidAction.*hint$/);
    await expect(expectRefused(soap({ kind: 'other-fault', code: 'Server.Boom', faultstring: '' }), 'x', 'hint')).rejects.toThrow(Inconclusive);
  });

  it('never reads an unknown fault as a refusal', async () => {
    await expect(expectRefused(soap({ kind: 'other-fault', code: 'Client.Validation', faultstring: 'bad payload' }), 'the token', 'h')).rejects.toThrow(Inconclusive);
  });

  describe('by difference (XPROTO-02, ENV-01, ACCESS-*)', () => {
    const served = rest({ kind: 'success', status: 200 }, 'GET CERT /v1/lists/supported/shop/themes with Bearer … → 200');
    const status400 = rest({ kind: 'rejected', status: 400 }, 'GET CERT /v1/lists/supported/shop/themes with Bearer … → 400');

    it('reads a 400 as a refusal of the token when the same request with another token was served before and after it', async () => {
      let again = 0;
      const control = { factor: 'token' as const, before: served, again: async () => { again++; return served; } };
      await expect(expectAccepted(status400, 'a SOAP token on REST', 'h', 'accepted', control)).rejects.toThrow(/refused: .*→ 400.*while the same request with another token was served .*→ 200.*differ in the token alone/);
      await expect(expectRefused(status400, 'a token of another agency', 'h', 'a refusal', control)).resolves.toBeUndefined();
      expect(again).toBe(2);
    });

    it('sends the control again only when the answer needs attributing', async () => {
      let again = 0;
      const control = { factor: 'token' as const, before: served, again: async () => { again++; return served; } };
      await expectAccepted(served, 'x', 'h', 'accepted', control);
      await expect(expectAccepted(rest({ kind: 'refused', status: 401 }), 'x', 'h', 'accepted', control)).rejects.toThrow(CheckFailure);
      expect(again).toBe(0);
    });

    it('stays inconclusive when the control was not served, or not served again, or the answer is transient', async () => {
      const down = rest({ kind: 'server-error', status: 503 }, 'GET … → 503');
      await expect(expectAccepted(status400, 'x', 'h', 'accepted', { factor: 'token', before: down })).rejects.toThrow(Inconclusive);
      await expect(expectAccepted(status400, 'x', 'h', 'accepted', { factor: 'token', before: served, again: async () => down })).rejects.toThrow(/not served either/);
      await expect(expectAccepted(rest({ kind: 'rate-limited', status: 429 }), 'x', 'h', 'accepted', { factor: 'token', before: served, again: async () => served })).rejects.toThrow(Inconclusive);
      await expect(expectAccepted(status400, 'x', 'h')).rejects.toThrow(/no control differing only in the token/);
    });

    it('never reads a server error seen once as a refusal, between served controls: the trial is sent again (REST-04, XPROTO-*)', async () => {
      const control = { factor: 'token' as const, before: served, again: async () => served };
      for (const status of [500, 502, 504]) {
        const failing = rest({ kind: 'server-error', status }, `GET … → ${status}`);
        await expect(expectAccepted(failing, 'x', 'h', 'accepted', control)).rejects.toThrow(Inconclusive);
        await expect(expectRefused(failing, 'x', 'h', 'a refusal', control)).rejects.toThrow(Inconclusive);
      }
      const gatewayPage = soap({ kind: 'not-soap', status: 502, reason: 'not a SOAP envelope' }, 'BargainFinderMaxRQ → 502');
      await expect(expectAccepted(gatewayPage, 'x', 'h', 'accepted', { factor: 'protocol', before: soap({ kind: 'success', action: 'X' }), again: async () => soap({ kind: 'success', action: 'X' }) })).rejects.toThrow(Inconclusive);
      // Sent again: a 502 once, then served, is a success; a 502 that stays is resent a bounded number of times.
      let sent = 0;
      const once = { ...rest({ kind: 'server-error', status: 502 }, 'GET … → 502'), resend: async () => { sent++; return served; } };
      await expect(expectAccepted(once, 'x', 'h', 'accepted', control)).resolves.toBeUndefined();
      expect(sent).toBe(1);
      // A server error the request gets every time it is resent is the service's answer to it, not a hiccup: against
      // controls served before and after, it is attributed (a gateway that puts a 500 page in place of every fault).
      sent = 0;
      const stays: ReturnType<typeof rest> = { ...rest({ kind: 'server-error', status: 500 }, 'GET … → 500'), resend: async () => { sent++; return stays; } };
      await expect(expectRefused(stays, 'x', 'h', 'a refusal', control)).resolves.toBeUndefined();
      expect(sent).toBe(SERVER_ERROR_RESENDS);
      // One that cannot be resent says nothing.
      await expect(expectRefused(rest({ kind: 'server-error', status: 500 }, 'GET … → 500'), 'x', 'h', 'a refusal', control)).rejects.toThrow(/HTTP 500: a server error, neither an acceptance nor a refusal/);
      // A real refusal after a server error is judged as such.
      const thenRefused = { ...rest({ kind: 'server-error', status: 504 }, 'GET … → 504'), resend: async () => rest({ kind: 'refused', status: 401 }) };
      await expect(expectAccepted(thenRefused, 'x', 'h', 'accepted', control)).rejects.toThrow(CheckFailure);
    });

    it('resends a probe call answered with a server error (callRest)', async () => {
      const sim = await createSimTarget();
      targets.push(sim);
      let calls = 0;
      const transport: Transport = {
        async request() {
          calls++;
          return { status: calls === 1 ? 502 : 200, headers: { 'content-type': 'application/json' }, body: '{}', durationMs: 1 };
        },
        async close() {},
      };
      const ctx = contextOf({ ...sim, transport });
      const control = { factor: 'token' as const, before: served, again: async () => served };
      await expect(expectAccepted(restAnswer(await callRest(ctx, 'cert', 'Bearer x')), 'x', 'h', 'accepted', control)).resolves.toBeUndefined();
      expect(calls).toBe(2);
    });
  });
});
