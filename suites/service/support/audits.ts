import { CheckFailure, failOn, ruleTest, validateEnvelope, type CheckContext } from '../../../harness/checks/index.ts';
import { err03Problems, isInvalidClient, issuedToken, stokProblems } from '../../../harness/judges/index.ts';
import { soapAnswerOf } from '../../../harness/checks/probe.ts';
import { accessTokenOf, jsonBody } from '../../../harness/checks/rest.ts';
import { freshRefusalJournal, journalTime, soapJournal, tokenJournal, type TokenExchange } from '../../../harness/checks/journal.ts';
import { limits } from '../../../harness/catalog/index.ts';
import { expectSoapResponse, schemaFor, type AnswerKind } from './soap-expect.ts';
import { expectTokenResponse, expectTokenResponseShape } from './token-answers.ts';

/**
 * The rules that hold for every answer, checked on every exchange a suite file's checks made (the journal of
 * harness/checks/journal.ts) — not on one sample, so that a verdict cannot depend on which answer a check happened to
 * look at. Declared last in a suite file. A clause the file's exchanges did not exercise is reported unchecked (the
 * rule's own checks exercise each).
 */
export function auditExchanges(scope: string): void {
  const soapClauses = ['SOAP-02.token-create', 'SOAP-02.session-create', 'SOAP-02.session-close', 'SOAP-02.call', 'SOAP-02.fault'];
  ruleTest('SOAP-02', `every SOAP answer to the ${scope} validates, carries an action, echoes ConversationId and refers to the request MessageId`, async (ctx) => {
    const seen = new Set<AnswerKind>();
    const journal = soapJournal().filter((x) => x.request.messageId !== '');
    // Every envelope goes to the validator at once (it answers them in order), then each is judged in turn.
    const verdicts = journal.map((x) => (x.envelope ? validateEnvelope(x.response.body, schemaFor(x)) : undefined));
    for (const v of verdicts) v?.catch(() => undefined);
    for (const [i, x] of journal.entries()) seen.add(await expectSoapResponse(x, `${x.request.action ?? 'a request'} (one of the ${scope})`, verdicts[i]));
    for (const clause of soapClauses) if (!seen.has(clause.slice('SOAP-02.'.length) as AnswerKind)) ctx.unchecked(clause, `the ${scope} received no such answer`);
  }, { clauses: soapClauses, replayFile: true });

  // "Response action TokenCreateRS / SessionCreateRS; wsse:BinarySecurityToken holds the token": every successful answer
  // to a token-creating request the file's checks sent, not only the one STOK-01's or STOK-02's own check looks at (a
  // blind gateway dropped the session token on some answers only, and the sessions it hid filled the pool).
  for (const [rule, action] of [['STOK-01', 'TokenCreateRQ'], ['STOK-02', 'SessionCreateRQ']] as const) {
    const clauses = rule === 'STOK-01'
      ? ['STOK-01.action', 'STOK-01.token', 'STOK-01.conversation-id', 'STOK-01.ref-to-message-id']
      : ['STOK-02.action', 'STOK-02.token', 'STOK-02.conversation-id'];
    ruleTest(rule, `every successful answer to a ${action} of the ${scope} carries its token, its action and the echoes`, async (ctx) => {
      const answered = soapJournal().filter((x) => x.request.action === action && x.envelope && soapAnswerOf(ctx, x).kind === 'success');
      for (const [i, x] of answered.entries()) {
        const problem = stokProblems(action, x.envelope!, { conversationId: x.request.conversationId, messageId: x.request.messageId })[0];
        if (problem) failOn({ ...problem, message: `${action} ${i + 1} of the ${answered.length} the ${scope} sent, answered as a success: ${problem.message}` });
      }
      // Nothing to audit is no check at all: the rule's own check decides (a vacuous pass would turn its skip into a partial).
      if (answered.length === 0) ctx.notApplicable(`the ${scope} received no successful answer to ${action}`);
    }, { clauses, replayFile: true });
  }

  // "A published REST API accepts Authorization: Bearer <access_token> with a valid token": every token the file's
  // checks had refused by the REST probe right after the token endpoint gave it (their control), not only API-01's own
  // requests (a gateway that caches a 401 without regard to the token refused later checks' fresh tokens, after API-01's
  // check had passed). A token the endpoint had given before is LIFE-02's (an expired token handed out again).
  ruleTest('API-01', `every token the ${scope} had refused by the REST probe right after it was issued`, async (ctx) => {
    const refusals = freshRefusalJournal();
    const given = (token: string) => tokenJournal().filter((x) => accessTokenOf(x.response) === token).length;
    const judged = refusals.filter((r) => given(r.token) <= 1);
    const first = judged[0];
    if (first) {
      throw new CheckFailure(`${first.what} (one of the ${scope}${judged.length > 1 ? `, and ${judged.length - 1} more` : ''})`, {
        expected: 'a token the token endpoint has just given, served by the REST probe',
        actual: `HTTP ${first.response.status}`,
        clause: 'API-01.accepted',
      });
    }
    if (refusals.length === 0) ctx.notApplicable(`the ${scope} had no token refused by the REST probe right after it was issued`);
    else ctx.notApplicable(`the ${scope}' tokens the REST probe refused at once had each been given before (LIFE-02's to judge)`);
  }, { clauses: ['API-01.accepted'], replayFile: true });

  const successes = () => tokenJournal().filter((x) => x.request.valid && x.response.status >= 200 && x.response.status < 300);
  const restClauses = ['REST-03.json-object', 'REST-03.access-token', 'REST-03.token-type', 'REST-03.expires-in'];
  ruleTest('REST-03', `every successful token answer to the ${scope} has access_token, token_type "bearer" and expires_in 604800`, async (ctx) => {
    const all = successes();
    for (const [i, x] of all.entries()) expectTokenResponse(x.response, `token answer ${i + 1} of ${all.length} (one of the ${scope})`);
    if (all.length === 0) for (const clause of restClauses) ctx.unchecked(clause, `the ${scope} received no successful token answer`);
  }, { clauses: restClauses, replayFile: true });

  ruleTest('REST-05', `every successful token answer to the ${scope} has status 200 and a JSON content type`, async (ctx) => {
    const all = successes();
    for (const [i, x] of all.entries()) expectTokenResponseShape(x.response, `token answer ${i + 1} of ${all.length} (one of the ${scope})`);
    if (all.length === 0) for (const clause of ['REST-05.status-200', 'REST-05.json-content-type']) ctx.unchecked(clause, `the ${scope} received no successful token answer`);
  }, { clauses: ['REST-05.status-200', 'REST-05.json-content-type'], replayFile: true });

  // "One call to an authentication API yields one token": every token the file's calls obtained, through REST, TokenCreateRQ
  // or SessionCreateRQ, is one no other call obtained (REST-04's property checks REST's own calls and their use). A
  // sessionless token given again after its lifetime is LIFE-02's deviation ("request a new one"), not this rule's.
  ruleTest('REST-04', `every token the ${scope} obtained (REST, TokenCreateRQ, SessionCreateRQ) is one no other call gave`, async (ctx) => {
    const obtained: Obtained[] = [];
    for (const x of tokenJournal()) {
      const token = accessTokenOf(x.response);
      const expiresIn = (jsonBody(x.response) as { expires_in?: unknown } | undefined)?.expires_in;
      const lifetime = typeof expiresIn === 'number' && expiresIn > 0 ? expiresIn : limits.accessTokenLifetimeSeconds;
      if (token !== undefined) obtained.push({ token, what: `the token answer to ${x.request.what}`, at: journalTime(x), lifetime });
    }
    for (const x of soapJournal()) {
      const action = x.request.action;
      if ((action !== 'TokenCreateRQ' && action !== 'SessionCreateRQ') || soapAnswerOf(ctx, x).kind !== 'success') continue;
      const token = issuedToken(x.envelope);
      const lifetime = action === 'TokenCreateRQ' ? limits.accessTokenLifetimeSeconds : undefined;
      if (token !== undefined) obtained.push({ token, what: `the ${action} answer (MessageId ${x.request.messageId})`, at: journalTime(x), lifetime });
    }
    const first = new Map<string, number>();
    for (const [i, o] of obtained.entries()) {
      const earlier = first.get(o.token);
      const e = earlier === undefined ? undefined : obtained[earlier]!;
      if (e && !(e.lifetime !== undefined && e.at !== undefined && o.at !== undefined && o.at - e.at >= e.lifetime)) {
        throw new CheckFailure(`one call yields one token: ${o.what} (call ${i + 1} of the ${obtained.length} that obtained a token in the ${scope}) holds the token ${e.what} (call ${earlier! + 1}) already gave`, { clause: 'REST-04.distinct' });
      }
      if (earlier === undefined) first.set(o.token, i);
    }
    if (obtained.length < 2) ctx.unchecked('REST-04.distinct', `the ${scope} obtained fewer than two tokens`);
  }, { clauses: ['REST-04.distinct'], replayFile: true });

  ruleTest('ERR-03', `every token error answered to the ${scope} is JSON, with 401 for invalid_client, and echoes no secret`, async (ctx) => {
    const errors = tokenJournal().filter((x) => x.request.form && x.response.status >= 400 && x.response.status < 500);
    const secrets = passwordsOf(ctx);
    for (const x of errors) expectTokenError(x, secrets, scope);
    if (errors.length === 0) for (const clause of ['ERR-03.status-401', 'ERR-03.json-body', 'ERR-03.no-secret']) ctx.unchecked(clause, `the ${scope} received no token error`);
    else if (!errors.some((x) => isInvalidClient(x.response))) ctx.unchecked('ERR-03.status-401', `the ${scope} received no invalid_client answer`);
  }, { clauses: ['ERR-03.status-401', 'ERR-03.json-body', 'ERR-03.no-secret'], replayFile: true });
}

/** A token a call obtained, when (seconds on the target's clock) and for how long a sessionless one lives. */
interface Obtained {
  readonly token: string;
  readonly what: string;
  readonly at: number | undefined;
  readonly lifetime: number | undefined;
}

/** The passwords of the target's accounts, which no error body may echo (the judge skips any too short to look for). */
function passwordsOf(ctx: CheckContext): string[] {
  return Object.values(ctx.target.accounts).flatMap((a) => (a ? [a.password] : []));
}

/** ERR-03 on one token error (harness/judges: the same judge as observe's): its first problem fails the check. */
function expectTokenError(x: TokenExchange, secrets: readonly string[], scope: string): void {
  failOn(err03Problems(x.response, secrets, `the token error (${x.response.status}) to ${x.request.what} (one of the ${scope})`)[0]);
}
