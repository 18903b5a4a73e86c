import fc from 'fast-check';
import { callSessionProbe, describeAnswer, soap, soapAnswerOf, soapProbe } from '../../harness/checks/probe.ts';
import {
  CheckFailure, closeRequest, Inconclusive, newConversationId, openSession, postEnvelope, PrerequisiteFailed, ruleProperty, ruleTest, runConfig,
  sessionClose, soapCall, type CheckContext, type OpenSession, type SoapExchange,
} from '../../harness/checks/index.ts';
import { tokenCreateRQBody } from '../../harness/soap/index.ts';
import { ENVIRONMENTS } from '../../harness/catalog/index.ts';
import { TransportError } from '../../harness/targets/index.ts';
import { err05Observation } from '../../harness/judges/index.ts';
import { expectInvalidSecurityToken } from './support/soap-expect.ts';
import { auditExchanges } from './support/audits.ts';
import { stringMatchingArbitrary } from '../../harness/checks/string-arbitrary.ts';
import { soapJournal } from '../../harness/checks/journal.ts';

type BadToken = { readonly label: string; readonly token: string };

const badTokens: fc.Arbitrary<BadToken> = fc.oneof(
  stringMatchingArbitrary(/^[A-Za-z0-9+/]{30,80}$/).map((s) => ({ label: 'an unknown T1RLAQ… token', token: `T1RLAQ${s}*` })),
  fc.bigInt({ min: 1n, max: 9_000_000_000_000_000_000n }).map((n) => ({
    label: 'an unknown session token',
    token: `Shared/IDL:IceSess\\/SessMgr:1\\.0.IDL/Common/!ICESMS\\/RESE!ICESMSLB\\/RES.LB!-${n}!110012!0`,
  })),
  // At least 8 characters: a shorter one (a single "s") may sit in any faultstring, quoted or not.
  stringMatchingArbitrary(/^[A-Za-z0-9._~-]{8,40}$/).map((s) => ({ label: 'a garbage token', token: s })),
);

const controls = new WeakMap<CheckContext, Promise<void>>();

/**
 * The control of the ERR-04 checks: SessionCloseRQ — the one request the document defines that takes a session
 * token — closes an open session. A fault for the same request with a bad token is then about the token.
 */
function requireCloseWorks(ctx: CheckContext): Promise<void> {
  let control = controls.get(ctx);
  if (!control) {
    control = openSession(ctx, 'cert').then((session) => closeExpectingIt(ctx, session));
    controls.set(ctx, control);
  }
  return control;
}

/**
 * Closes an open session, which must close. A close the service did not acknowledge but that took effect (its token
 * refused as invalid right after: see sessionClose) is a close: its answer is "Not shown beyond the invalidation of
 * the token".
 */
async function closeExpectingIt(ctx: CheckContext, session: OpenSession): Promise<void> {
  const x = await sessionClose(ctx, session);
  if (x.confirmed) return;
  expectClosed(ctx, x);
}

/** A SessionCloseRQ of an open session must have closed it; a refusal is SESS-02's to judge, anything else says nothing. */
function expectClosed(ctx: CheckContext, x: SoapExchange): void {
  const answer = soapAnswerOf(ctx, x);
  if (answer.kind === 'success') return;
  if (answer.kind === 'refused') throw new PrerequisiteFailed(`SessionCloseRQ of an open session was refused (${answer.code})`, ['SESS-02']);
  throw new Inconclusive(`SessionCloseRQ of an open session got ${describeAnswer(soap(answer))}`);
}

ruleProperty(
  'ERR-04',
  'an unknown BinarySecurityToken gets Client.InvalidSecurityToken quoting the token, with a StackTrace',
  badTokens,
  async (ctx, bad) => {
    await requireCloseWorks(ctx);
    const x = await closeRequest(ctx, 'cert', bad.token);
    expectInvalidSecurityToken(x, bad.token, `SessionCloseRQ with ${bad.label}`, 'ERR-04.unknown-token');
    // "A SOAP call with an invalid or expired session token returns the fault": any call, not the close alone. The
    // session probe (the Refresh Session API, or the action found answering a fresh session token) with the same
    // token; a target where none answers one has the close checked alone.
    const probe = await soapProbe(ctx, 'soapSession').catch((err: unknown) => {
      if (err instanceof PrerequisiteFailed || err instanceof Inconclusive) return undefined;
      throw err;
    });
    if (probe) {
      const p = await callSessionProbe(ctx, 'cert', bad.token);
      expectInvalidSecurityToken(p, bad.token, `${probe.action} with ${bad.label}`, 'ERR-04.unknown-token');
    }
  },
  {
    numRuns: 12,
    clauses: ['ERR-04.unknown-token'],
    // One token of each kind first, whatever the seed: a service may tell them apart by their shape.
    examples: [
      { label: 'an unknown T1RLAQ… token', token: 'T1RLAQHkUq3hBuAtuW0q2Lx5lQbFpBsmP8xHc9ryyTrsgRuN9nJ1Kfo5AADA*' },
      { label: 'an unknown session token', token: 'Shared/IDL:IceSess\\/SessMgr:1\\.0.IDL/Common/!ICESMS\\/RESE!ICESMSLB\\/RES.LB!-4711042000000000001!110012!0' },
      { label: 'a garbage token', token: 'not-a-token-8f3a1c' },
    ],
  },
);

/**
 * The fault is the same in every environment ("Check a rule on every exchange where it applies": a blind service left
 * the StackTrace out in PROD alone). One fixed unknown token there, after the same close of a session of that
 * environment works (the control); on a live target with opt-in only, as the other PROD checks.
 */
ruleTest('ERR-04', 'in PROD too: an unknown BinarySecurityToken gets Client.InvalidSecurityToken quoting the token, with a StackTrace', async (ctx) => {
  const others = ENVIRONMENTS.filter((env) => env !== 'cert' && ctx.target.environments[env] && ctx.target.accounts[env]);
  if (others.length === 0) return ctx.notApplicable('the target has no environment besides CERT with an account');
  ctx.requireOptIn(`the SOAP faults of ${others.map((e) => e.toUpperCase()).join(' and ')}`);
  const bad = 'T1RLAQHkUq3hBuAtuW0q2Lx5lQbFpBsmP8xHc9ryyTrsgRuN9nJ1Kfo5AADA*';
  for (const env of others) {
    await closeExpectingIt(ctx, await openSession(ctx, env));
    const x = await closeRequest(ctx, env, bad);
    expectInvalidSecurityToken(x, bad, `SessionCloseRQ with an unknown T1RLAQ… token in ${env.toUpperCase()}`, 'ERR-04.unknown-token');
  }
}, { clauses: ['ERR-04.unknown-token'] });

ruleTest('ERR-04', 'the token of a closed session gets Client.InvalidSecurityToken', async (ctx) => {
  const session = await openSession(ctx, 'cert');
  await closeExpectingIt(ctx, session);
  const x = await closeRequest(ctx, 'cert', session.token, session.conversationId);
  if (soapAnswerOf(ctx, x).kind === 'success') throw new PrerequisiteFailed('the token of a closed session is still accepted (a second SessionCloseRQ succeeded)', ['SESS-02']);
  expectInvalidSecurityToken(x, session.token, 'SessionCloseRQ with a closed session\'s token', 'ERR-04.closed-session');
}, { clauses: ['ERR-04.closed-session'] });

ruleTest('ERR-04', 'an expired session token gets Client.InvalidSecurityToken', async (ctx) => {
  const control = ctx.target.control;
  if (!control) return ctx.notApplicable('letting a session expire needs control of the clock (the simulator); the harness does not wait out a live session\'s inactivity timeout');
  const session = await openSession(ctx, 'cert');
  await control.advanceClock(ctx.target.sessionTimeoutSeconds + 5);
  const x = await sessionClose(ctx, session);
  if (soapAnswerOf(ctx, x).kind === 'success') throw new PrerequisiteFailed(`the session was still open ${ctx.target.sessionTimeoutSeconds + 5} s after its last request (SessionCloseRQ succeeded)`, ['SESS-03']);
  expectInvalidSecurityToken(x, session.token, 'SessionCloseRQ with an expired session\'s token', 'ERR-04.expired-session');
}, { clauses: ['ERR-04.expired-session'] });

ruleTest('ERR-05', 'the HTTP status of SOAP faults is recorded (publicly seen: 500)', async (ctx) => {
  const x = await closeRequest(ctx, 'cert', `unknown-${newConversationId()}`);
  if (!x.envelope?.fault) throw new PrerequisiteFailed(`an unknown token got ${describeAnswer(soap(soapAnswerOf(ctx, x)))}, not a SOAP fault`, ['ERR-04']);
  // Every fault the file's checks got so far, not this one alone: a service may answer faults with more than one status.
  const faults = soapJournal().filter((j) => j.envelope?.fault !== undefined).map((j) => j.response.status);
  ctx.info(err05Observation([x.response.status, ...faults]));
}, { clauses: ['ERR-05.fault-status'] });

const malformed: readonly { label: string; body: string }[] = [
  { label: 'a body that is not XML', body: 'grant_type=client_credentials' },
  { label: 'an empty body', body: '' },
  { label: 'a truncated envelope', body: '<?xml version="1.0"?><soap-env:Envelope xmlns:soap-env="http://schemas.xmlsoap.org/soap/envelope/"><soap-env:Header><eb:MessageHeader' },
  { label: 'XML that is not an envelope', body: '<?xml version="1.0"?><TokenCreateRQ xmlns="http://webservices.sabre.com"/>' },
  { label: 'JSON', body: '{"action":"TokenCreateRQ"}' },
];

ruleTest('ERR-07', 'malformed SOAP requests get an error answer in time, never a hang or a dropped connection', async (ctx) => {
  // Answers may take time within the request time limit (latitude timing): only no answer within it is a hang.
  const timeoutMs = runConfig().requestTimeoutMs;
  const unanswered = (err: unknown): err is TransportError => err instanceof TransportError && (err.code === 'TIMEOUT' || err.code === 'CONNECTION_DROPPED');
  for (const m of malformed) {
    let x: Awaited<ReturnType<typeof postEnvelope>> | undefined;
    let lost: TransportError | undefined;
    // Sent twice at most: one connection dropped, or one answer lost, may be the network's. A hang or a drop that
    // comes again, while a well-formed envelope is answered (the control: TokenCreateRQ without a Security header,
    // which creates nothing), is the service's answer to this request.
    for (let attempt = 1; attempt <= 2 && x === undefined; attempt++) {
      try {
        x = await postEnvelope(ctx, 'cert', m.body, undefined, timeoutMs);
      } catch (err) {
        if (!unanswered(err)) throw err;
        lost = err;
      }
    }
    if (x === undefined && lost !== undefined) {
      const control = await soapCall(ctx, 'cert', { action: 'TokenCreateRQ', security: { kind: 'none' }, body: tokenCreateRQBody(), timeoutMs })
        .catch((err: unknown) => {
          if (unanswered(err)) throw new TransportError(err.code, `the SOAP endpoint did not answer a well-formed envelope either (${err.message}): the network, not the request, lost the answers`, err.url, { cause: err });
          throw err;
        });
      ctx.note(`the well-formed control (TokenCreateRQ without a Security header) was answered ${control.response.status}, while the request with ${m.label} got no answer twice`);
      throw new CheckFailure(`a SOAP request with ${m.label} got no answer`, {
        code: lost.code,
        expected: `an error answer within ${timeoutMs} ms`,
        actual: lost.code === 'TIMEOUT' ? `no answer within ${timeoutMs} ms, twice` : 'the connection was dropped, twice',
      });
    }
    if (x === undefined) continue;
    // An error answer: an HTTP error status, or a SOAP fault (whatever its HTTP status: ERR-05 records that).
    const isError = x.response.status >= 400 || x.envelope?.fault !== undefined;
    if (!isError) throw new CheckFailure(`a SOAP request with ${m.label} was not answered with an error`, { expected: 'a SOAP fault or an HTTP error status', actual: `${x.response.status} ${x.envelope ? `an envelope without a fault (${x.envelope.action ?? ''})` : x.response.body.slice(0, 80)}` });
  }
}, {
  clauses: ['ERR-07.soap-malformed'],
  // Every request may take up to the request time limit and still be answered in time (latitude timing), and one
  // without an answer is sent again, with a control.
  timeout: (malformed.length + 2) * runConfig().requestTimeoutMs + 30_000,
});

auditExchanges('SOAP error checks');
