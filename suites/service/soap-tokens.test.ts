import fc from 'fast-check';
import {
  credentialsOf, expectEnvelope, expectEqual, expectThat, excerpt, isFault, responseToken, ruleProperty, ruleTest, sessionClose, sessionCreate, soapAccount,
  soapCall, tokenCreate, type SoapExchange,
} from '../../harness/checks/index.ts';
import { sessionCreateRQBody, tokenCreateRQBody, type RequestSecurity } from '../../harness/soap/index.ts';
import { expectSoapResponse } from './support/soap-expect.ts';

function expectToken(x: SoapExchange, what: string): string {
  expectEnvelope(x, what);
  const token = responseToken(x);
  expectThat(!isFault(x) && typeof token === 'string' && token.length > 0, `${what} returned no token in wsse:BinarySecurityToken`, {
    expected: 'a non-empty BinarySecurityToken',
    actual: isFault(x) ? `fault ${x.envelope?.fault?.faultcode}: ${x.envelope?.fault?.faultstring}` : excerpt(x),
  });
  return token as string;
}

ruleTest('STOK-01', 'TokenCreateRQ with valid credentials gets TokenCreateRS with a sessionless token, ConversationId and RefToMessageId', async (ctx) => {
  const x = await tokenCreate(ctx, 'cert');
  expectToken(x, 'TokenCreateRQ');
  expectEqual('eb:Action of the TokenCreateRQ answer', x.envelope?.action, 'TokenCreateRS');
  expectEqual('eb:ConversationId of the TokenCreateRQ answer (echoed)', x.envelope?.messageHeader?.conversationId, x.request.conversationId);
  expectEqual('eb:RefToMessageId of the TokenCreateRQ answer', x.envelope?.messageHeader?.messageData?.refToMessageId, x.request.messageId);
  if (ctx.target.control) {
    expectEqual('open sessions after TokenCreateRQ (a sessionless token allocates none)', await ctx.target.control.openSessions(), 0);
  }
});

ruleTest('STOK-02', 'SessionCreateRQ with valid credentials gets SessionCreateRS with a session token and ConversationId echoed', async (ctx) => {
  const x = await sessionCreate(ctx, 'cert');
  try {
    expectToken(x, 'SessionCreateRQ');
    expectEqual('eb:Action of the SessionCreateRQ answer', x.envelope?.action, 'SessionCreateRS');
    expectEqual('eb:ConversationId of the SessionCreateRQ answer (echoed)', x.envelope?.messageHeader?.conversationId, x.request.conversationId);
    await expectSoapResponse(x, 'SessionCreateRS', 'SessionCreateRQ');
  } finally {
    if (x.session) await sessionClose(ctx, x.session);
  }
});

type Wrong = { readonly label: string; readonly security: (good: Extract<RequestSecurity, { kind: 'usernameToken' }>) => RequestSecurity };

const wrongCredentials: fc.Arbitrary<Wrong> = fc.oneof(
  fc.string({ minLength: 1, maxLength: 16 }).map((p): Wrong => ({ label: 'a wrong password', security: (g) => ({ ...g, password: g.password === p ? `${p}x` : p }) })),
  fc.stringMatching(/^[0-9A-Z]{3,8}$/).map((u): Wrong => ({ label: 'a wrong Username (EPR)', security: (g) => ({ ...g, username: g.username === u ? `${u}9` : u }) })),
  fc.stringMatching(/^[0-9A-Z]{3,5}$/).map((o): Wrong => ({ label: 'a wrong Organization (PCC)', security: (g) => ({ ...g, organization: g.organization === o ? `${o}Z` : o }) })),
  fc.constant<Wrong>({ label: 'an empty password', security: (g) => ({ ...g, password: '' }) }),
  fc.constant<Wrong>({ label: 'no UsernameToken (empty Security header)', security: () => ({ kind: 'empty' }) }),
  fc.constant<Wrong>({ label: 'no Security header', security: () => ({ kind: 'none' }) }),
  fc.constant<Wrong>({ label: 'a BinarySecurityToken instead of a UsernameToken', security: () => ({ kind: 'binarySecurityToken', token: 'not-a-token' }) }),
);

ruleProperty(
  'STOK-03',
  'a token-creating request with wrong or missing UsernameToken credentials gets a SOAP fault and no token',
  fc.record({ wrong: wrongCredentials, action: fc.constantFrom('TokenCreateRQ', 'SessionCreateRQ') }),
  async (ctx, { wrong, action }) => {
    const account = soapAccount(ctx, 'cert');
    const good = credentialsOf(account) as Extract<RequestSecurity, { kind: 'usernameToken' }>;
    const body = action === 'TokenCreateRQ' ? tokenCreateRQBody() : sessionCreateRQBody({ pseudoCityCode: account.pcc });
    const x = await soapCall(ctx, 'cert', { action, security: wrong.security(good), body, cpaId: account.pcc });
    const token = responseToken(x);
    if (action === 'SessionCreateRQ' && token && !isFault(x)) await sessionClose(ctx, { env: 'cert', token, conversationId: x.request.conversationId, cpaId: account.pcc });
    expectThat(isFault(x), `${action} with ${wrong.label} was not refused with a SOAP fault`, {
      expected: 'a SOAP fault (publicly seen: Client.AuthenticationFailed)',
      actual: x.envelope ? `${x.response.status} ${x.envelope.action ?? ''}` : `${x.response.status} ${x.parseError ?? ''}`,
    });
    expectThat(!token, `the fault for ${action} with ${wrong.label} carries a token`, { expected: 'no BinarySecurityToken', actual: 'a token' });
  },
  { numRuns: 20 },
);
