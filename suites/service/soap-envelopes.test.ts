import fc from 'fast-check';
import { probeBody, soapProbe } from '../../harness/checks/probe.ts';
import {
  closeRequest, credentialsOf, newConversationId, openSession, responseToken, ruleProperty, sessionClose, soapAccount, soapCall, type CheckContext, type SoapCall,
} from '../../harness/checks/index.ts';
import { sessionCreateRQBody, tokenCreateRQBody } from '../../harness/soap/index.ts';
import { expectSoapResponse, type AnswerKind } from './support/soap-expect.ts';
import { auditExchanges } from './support/audits.ts';
import { stringMatchingArbitrary } from '../../harness/checks/string-arbitrary.ts';

const id = stringMatchingArbitrary(/^[A-Za-z0-9][A-Za-z0-9._@:-]{0,39}$/);

/** The header variations a request may take: eb:version, the header's shape, caller-chosen IDs. */
const variation = fc.record({
  version: fc.constantFrom('1.0' as const, '2.0.0' as const),
  headerShape: fc.constantFrom('prefixed' as const, 'default-namespace' as const),
  conversationId: id,
  messageId: id,
});
type Variation = typeof variation extends fc.Arbitrary<infer V> ? V : never;

const label = (what: string, v: Variation) => `${what} (eb:version ${v.version}, ${v.headerShape} header)`;
const common = (ctx: CheckContext, v: Variation): Partial<SoapCall> => ({
  version: v.version, style: { headerShape: v.headerShape }, conversationId: v.conversationId, messageId: v.messageId, cpaId: soapAccount(ctx, 'cert').pcc,
});

/** Judges an answer, and reports the expected kind unchecked when a fault came instead (the fault clause covers it). */
async function judge(ctx: CheckContext, x: Parameters<typeof expectSoapResponse>[0], expected: AnswerKind, what: string): Promise<void> {
  const kind = await expectSoapResponse(x, what);
  if (kind !== expected) ctx.unchecked(`SOAP-02.${expected}`, `${what} was answered with a fault (judged as such)`);
}

ruleProperty('SOAP-02', 'the answer to TokenCreateRQ validates, carries TokenCreateRS, echoes ConversationId and refers to the request MessageId', variation, async (ctx, v) => {
  const account = soapAccount(ctx, 'cert');
  const x = await soapCall(ctx, 'cert', { action: 'TokenCreateRQ', security: credentialsOf(account), body: tokenCreateRQBody(), ...common(ctx, v) });
  await judge(ctx, x, 'token-create', label('TokenCreateRQ', v));
}, { numRuns: 8, clauses: ['SOAP-02.token-create', 'SOAP-02.fault'] });

ruleProperty('SOAP-02', 'the answers to SessionCreateRQ and SessionCloseRQ validate, carry their actions, echo ConversationId and refer to the request MessageId', variation, async (ctx, v) => {
  const account = soapAccount(ctx, 'cert');
  const x = await soapCall(ctx, 'cert', { action: 'SessionCreateRQ', security: credentialsOf(account), body: sessionCreateRQBody({ pseudoCityCode: account.pcc }), ...common(ctx, v) });
  const token = x.envelope?.fault ? undefined : responseToken(x);
  try {
    await judge(ctx, x, 'session-create', label('SessionCreateRQ', v));
  } finally {
    if (token) {
      const closed = await sessionClose(ctx, { env: 'cert', token, conversationId: v.conversationId, cpaId: account.pcc });
      await judge(ctx, closed, 'session-close', 'SessionCloseRQ');
    } else {
      ctx.unchecked('SOAP-02.session-close', 'no session was opened to close');
    }
  }
}, { numRuns: 6, clauses: ['SOAP-02.session-create', 'SOAP-02.session-close', 'SOAP-02.fault'] });

ruleProperty('SOAP-02', 'the answer to a call in a session validates, carries an action, echoes the session\'s ConversationId and refers to the request MessageId', variation, async (ctx, v) => {
  const session = await openSession(ctx, 'cert');
  try {
    const probe = await soapProbe(ctx, 'soapSession');
    const x = await soapCall(ctx, 'cert', { action: probe.action, security: { kind: 'binarySecurityToken', token: session.token }, body: probeBody(probe), ...common(ctx, v), conversationId: session.conversationId });
    await judge(ctx, x, 'call', label(probe.action, v));
  } finally {
    await sessionClose(ctx, session);
  }
}, { numRuns: 6, clauses: ['SOAP-02.call', 'SOAP-02.fault'] });

ruleProperty('SOAP-02', 'a fault answer validates, echoes ConversationId and refers to the request MessageId', variation, async (ctx, v) => {
  const x = await closeRequest(ctx, 'cert', `unknown-${newConversationId()}`, v.conversationId);
  await judge(ctx, x, 'fault', 'SessionCloseRQ with an unknown token');
}, { numRuns: 4, clauses: ['SOAP-02.fault'] });

auditExchanges('SOAP envelope checks');
