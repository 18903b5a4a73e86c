import fc from 'fast-check';
import {
  CheckFailure, isFault, newConversationId, openSession, ping, postEnvelope, ruleProperty, ruleTest, runConfig, sessionClose,
} from '../../harness/checks/index.ts';
import { TransportError } from '../../harness/targets/index.ts';
import { expectInvalidSecurityToken } from './support/soap-expect.ts';

type BadToken = { readonly label: string; readonly token: string };

const badTokens: fc.Arbitrary<BadToken> = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9+/]{30,80}$/).map((s) => ({ label: 'an unknown T1RLAQ… token', token: `T1RLAQ${s}*` })),
  fc.bigInt({ min: 1n, max: 9_000_000_000_000_000_000n }).map((n) => ({
    label: 'an unknown session token',
    token: `Shared/IDL:IceSess\\/SessMgr:1\\.0.IDL/Common/!ICESMS\\/RESE!ICESMSLB\\/RES.LB!-${n}!110012!0`,
  })),
  fc.stringMatching(/^[A-Za-z0-9._~-]{1,40}$/).map((s) => ({ label: 'a garbage token', token: s })),
);

ruleProperty(
  'ERR-04',
  'an unknown BinarySecurityToken gets Client.InvalidSecurityToken quoting the token, with a StackTrace',
  badTokens,
  async (ctx, bad) => {
    const x = await ping(ctx, 'cert', bad.token);
    expectInvalidSecurityToken(x, bad.token, `a ping with ${bad.label}`);
  },
  { numRuns: 12 },
);

ruleTest('ERR-04', 'the token of a closed session gets Client.InvalidSecurityToken', async (ctx) => {
  const session = await openSession(ctx, 'cert');
  await sessionClose(ctx, session);
  expectInvalidSecurityToken(await ping(ctx, 'cert', session.token), session.token, 'a ping with a closed session\'s token');
});

ruleTest('ERR-04', 'an expired session token gets Client.InvalidSecurityToken', async (ctx) => {
  const control = ctx.target.control;
  if (!control) return ctx.notApplicable('letting a session expire needs control of the clock (or a 15-minute wait)');
  const session = await openSession(ctx, 'cert');
  await control.advanceClock(ctx.target.sessionTimeoutSeconds + 5);
  expectInvalidSecurityToken(await ping(ctx, 'cert', session.token), session.token, 'a ping with an expired session\'s token');
});

ruleTest('ERR-05', 'the HTTP status of SOAP faults is recorded (publicly seen: 500)', async (ctx) => {
  const x = await ping(ctx, 'cert', `unknown-${newConversationId()}`);
  if (!isFault(x)) throw new CheckFailure('an unknown token got no SOAP fault (see ERR-04)', { expected: 'a fault', actual: x.response.status });
  ctx.info({ observed: `HTTP ${x.response.status}`, publiclySeen: 'HTTP 500', matchesPublic: x.response.status === 500 });
});

const malformed: readonly { label: string; body: string }[] = [
  { label: 'a body that is not XML', body: 'grant_type=client_credentials' },
  { label: 'an empty body', body: '' },
  { label: 'a truncated envelope', body: '<?xml version="1.0"?><soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><soap-env:Header><eb:MessageHeader' },
  { label: 'XML that is not an envelope', body: '<?xml version="1.0"?><TokenCreateRQ xmlns="http://webservices.sabre.com"/>' },
  { label: 'JSON', body: '{"action":"TokenCreateRQ"}' },
];

ruleTest('ERR-07', 'malformed SOAP requests get an error response in time, never a hang or a dropped connection', async (ctx) => {
  const timeoutMs = Math.min(runConfig().requestTimeoutMs, 3_000);
  for (const m of malformed) {
    let status: number;
    try {
      status = (await postEnvelope(ctx, 'cert', m.body, undefined, timeoutMs)).response.status;
    } catch (err) {
      if (err instanceof TransportError && (err.code === 'TIMEOUT' || err.code === 'CONNECTION_DROPPED')) {
        throw new CheckFailure(`a SOAP request with ${m.label} got no answer`, { code: err.code, expected: `an error response within ${timeoutMs} ms`, actual: err.code === 'TIMEOUT' ? `no answer within ${timeoutMs} ms` : 'the connection was dropped' });
      }
      throw err;
    }
    if (status < 400) throw new CheckFailure(`a SOAP request with ${m.label} was not answered with an error`, { expected: 'a SOAP fault or an HTTP error status', actual: status });
  }
});
