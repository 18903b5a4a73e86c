import { describe, expect, it } from 'vitest';
import type { Transport } from '../targets/index.ts';
import { withFaultCodes } from '../classify/fault-codes.ts';
import { soapSessionCloser } from './soap-closer.ts';

const fault = (code: string) => `<soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><soap-env:Header/><soap-env:Body><soap-env:Fault><faultcode>soap-env:${code}</faultcode><faultstring>no</faultstring></soap-env:Fault></soap-env:Body></soap-env:Envelope>`;
const answering = (body: string): Transport => ({ request: async () => ({ status: 500, headers: { 'content-type': 'text/xml' }, body, durationMs: 1 }), close: async () => {} });
const session = { env: 'cert' as const, token: 'Shared/IDL:session-token', conversationId: 'c1', cpaId: 'Z2NL' };
const endpoints = { cert: { restBaseUrl: 'http://127.0.0.1:1', soapUrl: 'http://127.0.0.1:1/websvc' } };

describe('the main process\'s SessionCloseRQ', () => {
  it('takes a refusal of the token as invalid for a session over already, and any other refusal as a session still open', async () => {
    await expect(soapSessionCloser(endpoints, answering(fault('Client.InvalidSecurityToken')))(session, 1_000)).resolves.toEqual({ kind: 'refused', fault: 'Client.InvalidSecurityToken' });
    // A service that refused to close it (its account may not call that action, say): the session holds its slot.
    await expect(soapSessionCloser(endpoints, answering(fault('Client.NotAuthorized')))(session, 1_000)).rejects.toThrow('the service refused to close the session (Client.NotAuthorized)');
  });

  it('reads a fault with the target\'s own invalid-token code (its config\'s faultCodes) as a session over', async () => {
    const own = withFaultCodes({ invalidToken: ['Client.TokenGone'] });
    await expect(soapSessionCloser(endpoints, answering(fault('Client.TokenGone')), own)(session, 1_000)).resolves.toEqual({ kind: 'refused', fault: 'Client.TokenGone' });
    await expect(soapSessionCloser(endpoints, answering(fault('Client.TokenGone')))(session, 1_000)).rejects.toThrow('the service refused to close the session (Client.TokenGone)');
  });
});
