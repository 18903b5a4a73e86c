import fc from 'fast-check';
import { describeAnswer, soap, soapAnswerOf } from '../../harness/checks/probe.ts';
import {
  CheckFailure, credentialsOf, expectEqual, noSessionSlot, expectThat, failOn, Inconclusive, obtainSoapToken, PrerequisiteFailed, ruleProperty, ruleTest,
  sessionClose, sessionCreate, soapAccount, soapCall, tokenCreate, type CheckContext, type SoapExchange,
} from '../../harness/checks/index.ts';
import { issuedToken, stokProblems } from '../../harness/judges/index.ts';
import { sessionCreateRQBody, tokenCreateRQBody, type RequestSecurity } from '../../harness/soap/index.ts';
import { auditExchanges } from './support/audits.ts';
import { stringArbitrary, stringMatchingArbitrary } from '../../harness/checks/string-arbitrary.ts';

/**
 * The answer to a token-creating request with valid credentials must be a success for STOK-01/02 to judge its shape:
 * no SOAP envelope is SOAP-02's to judge, a refused account CRED-03's or XPROTO-03's, a full pool SESS-02/04's (or,
 * where the run opened no session of the account, nobody's: see noSessionSlot), and
 * any other fault says nothing.
 */
function expectSuccess(ctx: CheckContext, x: SoapExchange, action: 'TokenCreateRQ' | 'SessionCreateRQ'): void {
  const answer = soapAnswerOf(ctx, x);
  switch (answer.kind) {
    case 'success': return;
    case 'not-soap': throw new PrerequisiteFailed(`${action} got no SOAP envelope (${describeAnswer(soap(answer))})`, ['SOAP-02']);
    case 'refused': throw new PrerequisiteFailed(`${action} of the configured account was refused (${answer.code})`, ['CRED-03', 'XPROTO-03']);
    case 'pool-full': throw noSessionSlot('cert', soapAccount(ctx, 'cert').pcc, `${action} of the configured account in CERT`, answer.code);
    default: throw new Inconclusive(`${action} with the configured account's credentials got ${describeAnswer(soap(answer))}`);
  }
}

/** STOK-01 or STOK-02 on a successful answer (harness/judges: the same judge as observe's): its first problem fails the check. */
function expectTokenAnswer(x: SoapExchange, action: 'TokenCreateRQ' | 'SessionCreateRQ'): void {
  failOn(x.envelope && stokProblems(action, x.envelope, { conversationId: x.request.conversationId, messageId: x.request.messageId })[0]);
}

ruleTest('STOK-01', 'TokenCreateRQ with valid credentials gets TokenCreateRS with a sessionless token, ConversationId and RefToMessageId', async (ctx) => {
  const before = await ctx.target.control?.openSessions();
  const x = await tokenCreate(ctx, 'cert');
  expectSuccess(ctx, x, 'TokenCreateRQ');
  expectTokenAnswer(x, 'TokenCreateRQ');
  if (ctx.target.control) {
    expectEqual('open sessions after TokenCreateRQ (a sessionless token allocates none)', await ctx.target.control.openSessions(), before);
  } else {
    ctx.unchecked('STOK-01.sessionless', 'whether a session was allocated cannot be seen from outside the service');
  }
}, { clauses: ['STOK-01.action', 'STOK-01.token', 'STOK-01.sessionless', 'STOK-01.conversation-id', 'STOK-01.ref-to-message-id'] });

ruleTest('REST-04', 'three TokenCreateRQ calls yield three distinct tokens', async (ctx) => {
  // "One call to an authentication API yields one token": TokenCreateRQ is one (the REST endpoint's calls are the
  // property's of suites/service/token-endpoint.test.ts; every token a file obtained is audited: support/audits.ts).
  const tokens: string[] = [];
  for (let i = 0; i < 3; i++) {
    const x = await tokenCreate(ctx, 'cert');
    expectSuccess(ctx, x, 'TokenCreateRQ');
    const token = issuedToken(x.envelope);
    if (token === undefined) throw new PrerequisiteFailed(`TokenCreateRQ ${i + 1} of 3 gave no token`, ['STOK-01']);
    tokens.push(token);
  }
  expectEqual('number of distinct tokens from 3 TokenCreateRQ calls', new Set(tokens).size, 3);
}, { clauses: ['REST-04.distinct'] });

ruleTest('STOK-02', 'SessionCreateRQ with valid credentials gets SessionCreateRS with a session token and ConversationId echoed', async (ctx) => {
  const x = await sessionCreate(ctx, 'cert');
  try {
    expectSuccess(ctx, x, 'SessionCreateRQ');
    expectTokenAnswer(x, 'SessionCreateRQ');
  } finally {
    if (x.session) await sessionClose(ctx, x.session);
  }
}, { clauses: ['STOK-02.action', 'STOK-02.token', 'STOK-02.conversation-id'] });

type Wrong = { readonly label: string; readonly security: (good: Extract<RequestSecurity, { kind: 'usernameToken' }>) => RequestSecurity };

const WRONG_PASSWORD: Wrong = { label: 'a wrong password', security: (g) => ({ ...g, password: `${g.password}x` }) };
const BINARY_INSTEAD: Wrong = { label: 'a BinarySecurityToken instead of a UsernameToken', security: () => ({ kind: 'binarySecurityToken', token: 'not-a-token' }) };

const wrongCredentials: fc.Arbitrary<Wrong> = fc.oneof(
  stringArbitrary({ minLength: 1, maxLength: 16 }).map((p): Wrong => ({ label: 'a wrong password', security: (g) => ({ ...g, password: g.password === p ? `${p}x` : p }) })),
  stringMatchingArbitrary(/^[0-9A-Z]{3,8}$/).map((u): Wrong => ({ label: 'a wrong Username (EPR)', security: (g) => ({ ...g, username: g.username === u ? `${u}9` : u }) })),
  // Not a wrong Organization (PCC): "with a wrong PCC the agency-specific APIs are not accessible" lets a service issue
  // a token for it (and refuse the agency's APIs, ACCESS-02's to judge), so it is no clearly wrong credential.
  fc.constant<Wrong>({ label: 'an empty password', security: (g) => ({ ...g, password: '' }) }),
  fc.constant<Wrong>({ label: 'no UsernameToken (empty Security header)', security: () => ({ kind: 'empty' }) }),
  fc.constant<Wrong>({ label: 'no Security header', security: () => ({ kind: 'none' }) }),
  fc.constant<Wrong>(BINARY_INSTEAD),
);

const controls = new WeakMap<CheckContext, Promise<string>>();

ruleProperty(
  'STOK-03',
  'a token-creating request with wrong or missing UsernameToken credentials gets a SOAP fault and no token',
  fc.record({ wrong: wrongCredentials, action: fc.constantFrom('TokenCreateRQ', 'SessionCreateRQ') }),
  async (ctx, { wrong, action }) => {
    // The control: the right credentials do obtain a token, so a fault for wrong ones is about them.
    if (!controls.has(ctx)) controls.set(ctx, obtainSoapToken(ctx, 'cert'));
    await controls.get(ctx);
    const account = soapAccount(ctx, 'cert');
    const good = credentialsOf(account) as Extract<RequestSecurity, { kind: 'usernameToken' }>;
    const body = action === 'TokenCreateRQ' ? tokenCreateRQBody() : sessionCreateRQBody({ pseudoCityCode: account.pcc });
    const security = wrong.security(good);
    const x = await soapCall(ctx, 'cert', { action, security, body, cpaId: account.pcc });
    // A token the request itself carried, echoed back in the fault's header (as the public service does), is not one
    // the answer issued: only a token the request did not send counts.
    const token = issuedToken(x.envelope, security.kind === 'binarySecurityToken' ? [security.token] : []);
    if (action === 'SessionCreateRQ' && token && !x.envelope?.fault) await sessionClose(ctx, { env: 'cert', token, conversationId: x.request.conversationId, cpaId: account.pcc });
    const answer = soapAnswerOf(ctx, x);
    if (answer.kind === 'busy') throw new Inconclusive(`${action} with ${wrong.label} got ${describeAnswer(soap(answer))}`);
    if (answer.kind === 'success' || answer.kind === 'not-soap') {
      throw new CheckFailure(`${action} with ${wrong.label} was not refused with a SOAP fault`, { expected: 'a SOAP fault (publicly seen: Client.AuthenticationFailed)', actual: describeAnswer(soap(answer)) });
    }
    expectThat(!token, `the fault for ${action} with ${wrong.label} carries a token`, { expected: 'no BinarySecurityToken', actual: 'a token' });
  },
  {
    numRuns: 20,
    clauses: ['STOK-03.refused', 'STOK-03.no-token'],
    // Tried first whatever the seed: the plainest wrong credentials, a wrong password, and a BinarySecurityToken in
    // place of the UsernameToken (the public service echoes it in the fault's header), on both token-creating actions.
    examples: (['TokenCreateRQ', 'SessionCreateRQ'] as const).flatMap((action) => [WRONG_PASSWORD, BINARY_INSTEAD].map((wrong) => ({ action, wrong }))),
  },
);

auditExchanges('SOAP token checks');
