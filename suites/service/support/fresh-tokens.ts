import { restTokenRoute } from '../../../harness/checks/routes.ts';
import {
  callRest, callSessionProbe, callSoap, describeAnswer, inconclusiveAnswer, PROBE_HINTS, rest, restAnswer, soap, soapAnswer, soapProbe, type Answer,
} from '../../../harness/checks/probe.ts';
import { Inconclusive, obtainSoapToken, PrerequisiteFailed, type CheckContext, type OpenSession } from '../../../harness/checks/index.ts';
import { journalFreshRefusal } from '../../../harness/checks/journal.ts';
import type { Environment, RuleId } from '../../../harness/catalog/index.ts';
import type { Account } from '../../../harness/targets/index.ts';

/** A token the probe accepted, where it came from, and the probe's answer (the control of a later trial). */
export interface AcceptedToken {
  readonly token: string;
  readonly env: Environment;
  readonly answer: Answer;
}

/**
 * A REST token that the REST probe accepts right after it was issued: the control that makes any later answer to it
 * mean something. From `env` (with `account`), or — `env` left out — from the first route that gives one (every
 * environment with its account). A token refused at once is `refusedBy`'s to judge (API-01 by default).
 */
export async function acceptedRestToken(ctx: CheckContext, options: { env?: Environment; account?: Account; refusedBy?: readonly RuleId[] } = {}): Promise<AcceptedToken> {
  const { token, env } = await restTokenRoute(ctx, { ...(options.env && { env: options.env }), ...(options.account && { account: options.account }) });
  const result = await callRest(ctx, env, `Bearer ${token}`);
  const { answer } = result;
  if (answer.kind === 'refused' || answer.kind === 'forbidden') {
    const what = `a token from ${env.toUpperCase()} was refused by ${ctx.target.probes.rest.method} ${ctx.target.probes.rest.path} right after it was issued`;
    const refusedBy = options.refusedBy ?? ['API-01', 'LIFE-02'];
    // API-01's audit (support/audits.ts) judges it, whichever check met it.
    if (refusedBy.includes('API-01')) journalFreshRefusal({ token, what, response: result.response });
    throw new PrerequisiteFailed(what, refusedBy);
  }
  if (answer.kind !== 'success') throw new Inconclusive(`the REST probe answered ${describeAnswer(rest(answer))} to a fresh token; ${PROBE_HINTS.rest}`);
  return { token, env, answer: restAnswer(result) };
}

/**
 * A TokenCreateRQ token that the SOAP sessionless probe accepts. A refusal means the probe does not take sessionless
 * tokens (or the token is not one: STOK-01), which the harness cannot tell apart: inconclusive, with the hint.
 */
export async function acceptedSoapToken(ctx: CheckContext, env: Environment = 'cert', account?: Account): Promise<AcceptedToken> {
  const { action } = await soapProbe(ctx, 'soapSessionless');
  const token = await obtainSoapToken(ctx, env, account);
  const result = await callSoap(ctx, env, token);
  const { answer } = result;
  if (answer.kind === 'refused') {
    throw new PrerequisiteFailed(
      `${action} refused a fresh TokenCreateRQ token (${answer.code}): either the token was not fresh, or that action does not take sessionless tokens (then ${PROBE_HINTS.soapSessionless})`,
      ['LIFE-02', 'STOK-01'],
    );
  }
  if (answer.kind !== 'success') {
    // No SOAP envelope where refusals come without one either (a gateway's page in place of every fault): the answer
    // may be a refusal, and the check is skipped after ERR-04, not an error.
    throw inconclusiveAnswer(answer, `${action} answered ${describeAnswer(soap(answer))} to a fresh TokenCreateRQ token, so it cannot show whether sessionless tokens are accepted; ${PROBE_HINTS.soapSessionless}`);
  }
  return { token, env, answer: soapAnswer(result) };
}

/** A session whose token the session probe (the Refresh Session API) accepts right after SessionCreateRQ. */
export async function acceptedSession(ctx: CheckContext, session: OpenSession): Promise<void> {
  const { answer, request } = await callSessionProbe(ctx, session.env, session.token, session.conversationId);
  if (answer.kind === 'refused') throw new PrerequisiteFailed(`${request.action} refused a session token right after SessionCreateRQ`, ['SESS-01']);
  if (answer.kind !== 'success') throw inconclusiveAnswer(answer, `${request.action} answered ${describeAnswer(soap(answer))} to a fresh session token; ${PROBE_HINTS.soapSession}`);
}
