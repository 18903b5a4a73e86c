import { describe, expect, it } from 'vitest';
import { buildRequest, makeRequestHeader, otaPingRQBody, parseEnvelope, type RequestSecurity } from '../soap/index.ts';
import { createInProcessValidator } from '../soap/in-process-validator.ts';
import { ManualClock } from './clock.ts';
import { SimCore, SOAP_PATH } from './core.ts';
import { defaultAccounts } from './default-accounts.ts';

/**
 * The invalid-token fault echoes the token the request carried; a request that carried none (an empty security
 * header, or the token where it does not go) gets a security header with no token, not an empty BinarySecurityToken,
 * which the response schema refuses (SOAP-02 would fail the simulator for the client's deviation, SOAP-04's).
 */
describe('the simulator\'s invalid-token fault', () => {
  const accounts = defaultAccounts(5);
  const core = new SimCore({ clock: new ManualClock(Date.UTC(2026, 0, 1)), accounts: accounts.accounts, seed: 5 });
  const validator = createInProcessValidator();
  const ping = (security: RequestSecurity) => {
    const header = makeRequestHeader({ action: 'OTA_PingRQ', cpaId: accounts.main.cert.pcc, conversationId: 'c-1', now: new Date(0), messageId: 'm-1' });
    const r = core.handle({ env: 'cert', method: 'POST', path: SOAP_PATH, query: '', headers: { 'content-type': 'text/xml' }, body: buildRequest({ header, security, body: otaPingRQBody() }) });
    if (r.kind !== 'response') throw new Error(r.kind);
    return r.body;
  };

  for (const [what, security] of [
    ['an empty security header', { kind: 'empty' }],
    ['the token as a UsernameToken password', { kind: 'usernameToken', username: '', password: 'T1RLAQ-kept', organization: '', domain: '' }],
    ['an unknown token', { kind: 'binarySecurityToken', token: 'T1RLAQ-unknown' }],
  ] as const) {
    it(`answers ${what} with a fault that validates`, () => {
      const body = ping(security);
      const parsed = parseEnvelope(body);
      expect(parsed.ok && parsed.envelope.fault?.faultcodeLocal).toBe('Client.InvalidSecurityToken');
      expect(validator.validateNow(body, 'response')).toEqual({ valid: true });
      const echoed = parsed.ok && parsed.envelope.security.kind === 'binarySecurityToken' ? parsed.envelope.security.token : undefined;
      expect(echoed).toBe(security.kind === 'binarySecurityToken' ? security.token : undefined);
    });
  }
});
