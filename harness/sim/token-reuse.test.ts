import { describe, expect, it } from 'vitest';
import { basicAuthorization, clientIdFor } from '../credentials/index.ts';
import { buildRequest, makeRequestHeader, parseEnvelope, tokenCreateRQBody } from '../soap/index.ts';
import { issuedToken } from '../judges/index.ts';
import { ManualClock } from './clock.ts';
import { SimCore, SOAP_PATH } from './core.ts';
import { defaultAccounts } from './default-accounts.ts';
import type { DefectId } from './defects.ts';

/**
 * "One call to an authentication API yields one token" (REST-04), through REST and through TokenCreateRQ: the defect
 * rest04-token-reused repeats the latest valid token on both, rest04-soap-token-reused on TokenCreateRQ alone.
 */
describe('the simulator\'s token reuse defects', () => {
  const accounts = defaultAccounts(5);
  const main = accounts.main.cert;
  const start = (defects: readonly DefectId[]) => new SimCore({ clock: new ManualClock(Date.UTC(2026, 0, 1)), accounts: accounts.accounts, defects, seed: 5 });
  const rest = (core: SimCore): string => {
    const r = core.handle({
      env: 'cert', method: 'POST', path: '/v2/auth/token', query: '', body: 'grant_type=client_credentials',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuthorization({ ...clientIdFor(main), password: main.password }) },
    });
    if (r.kind !== 'response') throw new Error(r.kind);
    return String((JSON.parse(r.body) as { access_token: unknown }).access_token);
  };
  let n = 0;
  const soap = (core: SimCore): string | undefined => {
    n++;
    const header = makeRequestHeader({ action: 'TokenCreateRQ', cpaId: main.pcc, conversationId: `c-${n}`, now: new Date(0), messageId: `m-${n}` });
    const security = { kind: 'usernameToken', username: main.epr, password: main.password, organization: main.pcc, domain: main.soapDomain } as const;
    const r = core.handle({ env: 'cert', method: 'POST', path: SOAP_PATH, query: '', headers: { 'content-type': 'text/xml' }, body: buildRequest({ header, security, body: tokenCreateRQBody() }) });
    if (r.kind !== 'response') throw new Error(r.kind);
    const parsed = parseEnvelope(r.body);
    return parsed.ok ? issuedToken(parsed.envelope) : undefined;
  };
  const twice = (core: SimCore, call: (c: SimCore) => string | undefined) => {
    const first = call(core);
    expect(first).toBeDefined();
    return first === call(core);
  };

  it.each([
    [[], { rest: false, soap: false }],
    [['rest04-token-reused'], { rest: true, soap: true }],
    [['rest04-soap-token-reused'], { rest: false, soap: true }],
  ] as const)('with %j repeats a token: %j', (defects, repeats) => {
    expect({ rest: twice(start(defects), rest), soap: twice(start(defects), soap) }).toEqual(repeats);
  });
});
