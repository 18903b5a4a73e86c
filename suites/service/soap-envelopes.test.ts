import fc from 'fast-check';
import {
  credentialsOf, newConversationId, openSession, ping, responseToken, ruleProperty, ruleTest, sessionClose, soapAccount, soapCall, type SoapExchange,
} from '../../harness/checks/index.ts';
import { otaPingRQBody, sessionCreateRQBody, tokenCreateRQBody } from '../../harness/soap/index.ts';
import { expectSoapResponse } from './support/soap-expect.ts';

const id = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._@:-]{0,39}$/);

const variation = fc.record({
  operation: fc.constantFrom('TokenCreateRQ', 'SessionCreateRQ', 'OTA_PingRQ', 'bad-token'),
  version: fc.constantFrom('1.0' as const, '2.0.0' as const),
  headerShape: fc.constantFrom('prefixed' as const, 'default-namespace' as const),
  conversationId: id,
  messageId: id,
});

ruleProperty(
  'SOAP-02',
  'every SOAP response validates, carries the response action, echoes ConversationId and refers to the request MessageId',
  variation,
  async (ctx, v) => {
    const account = soapAccount(ctx, 'cert');
    const common = { version: v.version, style: { headerShape: v.headerShape }, conversationId: v.conversationId, messageId: v.messageId, cpaId: account.pcc };
    let x: SoapExchange;
    let expected: string;
    switch (v.operation) {
      case 'TokenCreateRQ':
        x = await soapCall(ctx, 'cert', { action: 'TokenCreateRQ', security: credentialsOf(account), body: tokenCreateRQBody(), ...common });
        expected = 'TokenCreateRS';
        break;
      case 'SessionCreateRQ': {
        x = await soapCall(ctx, 'cert', { action: 'SessionCreateRQ', security: credentialsOf(account), body: sessionCreateRQBody({ pseudoCityCode: account.pcc }), ...common });
        expected = 'SessionCreateRS';
        const token = responseToken(x);
        if (token) await sessionClose(ctx, { env: 'cert', token, conversationId: v.conversationId, cpaId: account.pcc });
        break;
      }
      case 'OTA_PingRQ': {
        const session = await openSession(ctx, 'cert');
        try {
          x = await soapCall(ctx, 'cert', { action: 'OTA_PingRQ', security: { kind: 'binarySecurityToken', token: session.token }, body: otaPingRQBody(), ...common });
        } finally {
          await sessionClose(ctx, session);
        }
        expected = 'OTA_PingRS';
        break;
      }
      case 'bad-token':
        x = await soapCall(ctx, 'cert', { action: 'OTA_PingRQ', security: { kind: 'binarySecurityToken', token: `unknown-${newConversationId()}` }, body: otaPingRQBody(), ...common });
        expected = 'ErrorRS';
        break;
    }
    await expectSoapResponse(x, expected, `${v.operation} (eb:version ${v.version}, ${v.headerShape} header)`);
  },
  { numRuns: 16 },
);

ruleTest('SOAP-02', 'a ping within a session echoes the session\'s ConversationId', async (ctx) => {
  const session = await openSession(ctx, 'cert');
  try {
    const x = await ping(ctx, 'cert', session.token, session.conversationId);
    await expectSoapResponse(x, 'OTA_PingRS', 'OTA_PingRQ in a session');
  } finally {
    await sessionClose(ctx, session);
  }
});
