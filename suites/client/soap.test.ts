import { clientProperty, clientTest, explainFailure, issuedTokens, type ClientContext } from '../../harness/checks/client.ts';
import { expectThat, failOn, PrerequisiteFailed, validateEnvelope } from '../../harness/checks/index.ts';
import {
  soap01HeaderProblems, soap01SchemaProblem, soap01SchemaVerdict, soap03ManifestProblem, soap03UsernameTokenProblem, soap04ActionProblem, soap04TokenProblem,
  soap05ConversationProblem, soap05CpaIdProblem, TOKEN_CREATING,
} from '../../harness/judges/index.ts';
import type { ParsedEnvelope } from '../../harness/soap/index.ts';
import { envelopes } from './support/events.ts';
import { runSoapWorkload, runSoapWorkloadSettled, soapWorkload } from './support/workload.ts';

/** The requests that parsed (one that does not lacks eb:MessageHeader: SOAP-01's to judge). */
const parsed = <T extends { envelope: ParsedEnvelope | undefined }>(sent: readonly T[]) => sent.filter((x): x is T & { envelope: ParsedEnvelope } => x.envelope !== undefined);

/**
 * After the requests the client sent were judged: the failure of the workload, explained (a token or a call the
 * service refused for what another rule judges makes the check `skipped`, naming that rule).
 */
async function settle(ctx: ClientContext, failure: unknown, rule: 'SOAP-01' | 'SOAP-03' | 'SOAP-05'): Promise<void> {
  if (failure !== undefined) throw explainFailure(failure, await ctx.events(), 'token', [rule], await ctx.history());
}

clientProperty(
  'SOAP-01',
  'every SOAP request carries a complete eb:MessageHeader and a wsse Security header, and validates against the schemas',
  soapWorkload,
  async (ctx, workload) => {
    await ctx.configure();
    // What the client sent is judged even when the workload failed: a request that breaks this rule fails it.
    const { failure } = await runSoapWorkloadSettled(ctx, workload);
    const sent = envelopes(await ctx.events());
    if (failure === undefined) expectThat(sent.length > 0, 'the client sent no SOAP request', { expected: 'SOAP requests', actual: 'none' });
    // The judges observe uses too (harness/judges), on every request.
    for (const { event, envelope } of sent) {
      failOn(soap01HeaderProblems({ body: event.body, envelope })[0]);
      failOn(soap01SchemaProblem(await soap01SchemaVerdict(event.body, envelope?.action, validateEnvelope), envelope?.action));
    }
    await settle(ctx, failure, 'SOAP-01');
  },
  { numRuns: 5, clauses: ["SOAP-01.message-header", "SOAP-01.security-header", "SOAP-01.schema"] },
);

clientProperty(
  'SOAP-03',
  'token-creating requests carry a UsernameToken (Username = EPR, Password, Organization = PCC, Domain) and a manifest with one reference',
  soapWorkload,
  async (ctx, workload) => {
    await ctx.configure();
    const { failure } = await runSoapWorkloadSettled(ctx, workload);
    const account = ctx.target.accounts.cert!;
    const creating = parsed(envelopes(await ctx.events())).filter((x) => TOKEN_CREATING.has(x.envelope.action ?? ''));
    if (failure === undefined) expectThat(creating.length > 0, 'the client sent no TokenCreateRQ or SessionCreateRQ', { expected: 'a token-creating request', actual: 'none' });
    // The judges observe uses too (harness/judges); only the driver knows the password the account was given.
    for (const { envelope } of creating) {
      failOn(soap03UsernameTokenProblem(envelope, account));
      failOn(soap03ManifestProblem(envelope));
    }
    await settle(ctx, failure, 'SOAP-03');
  },
  { numRuns: 4, clauses: ["SOAP-03.username-token", "SOAP-03.manifest"] },
);

clientProperty(
  'SOAP-04',
  'every later call carries the token in wsse:BinarySecurityToken and the called API\'s action code in eb:Action',
  soapWorkload,
  async (ctx, workload) => {
    await ctx.configure();
    const asked = await runSoapWorkload(ctx, workload);
    const events = await ctx.events();
    // Every token the service issued to this client, in earlier cases too: a session the client pooled in an earlier
    // case may be closed in this one (the driver protocol lets a client keep sessions until its shutdown).
    const issued = issuedTokens(await ctx.history());
    const later = parsed(envelopes(events)).filter((x) => !TOKEN_CREATING.has(x.envelope.action ?? '')).map((x) => x.envelope);
    // The judges observe uses too (harness/judges), with what only the driver knows: every token the service
    // issued, and the actions the client was asked to call.
    for (const envelope of later) failOn(soap04TokenProblem(envelope, (token) => issued.has(token)));
    failOn(soap04ActionProblem(later, asked)?.problem);
  },
  { numRuns: 4, clauses: ["SOAP-04.binary-security-token", "SOAP-04.action-code"], needs: 'token' },
);

clientProperty(
  'SOAP-05',
  'eb:CPAId is the caller\'s PCC, and one workflow (a session) keeps one eb:ConversationId',
  soapWorkload,
  async (ctx, workload) => {
    await ctx.configure();
    const { failure } = await runSoapWorkloadSettled(ctx, workload);
    const account = ctx.target.accounts.cert!;
    const sent = parsed(envelopes(await ctx.events()));
    // The judges observe uses too (harness/judges): the caller's PCC on every request, one ConversationId in the session.
    for (const { envelope } of sent) failOn(soap05CpaIdProblem(envelope, account.pcc));
    const create = sent.find((x) => x.envelope.action === 'SessionCreateRQ');
    const token = create?.event.tokenIssued;
    const inSession = sent.filter((x) => token && x.envelope.security.kind === 'binarySecurityToken' && x.envelope.security.token === token);
    if (create) failOn(soap05ConversationProblem([create, ...inSession].map((x) => x.envelope)));
    await settle(ctx, failure, 'SOAP-05');
  },
  { numRuns: 4, clauses: ["SOAP-05.cpaid", "SOAP-05.conversation-id"] },
);

/** SOAP-05's CPAId in PROD as well (a blind client put the EPR there in PROD alone): a workflow there, every request judged. */
clientTest('SOAP-05', 'in PROD too: eb:CPAId is the PROD account\'s PCC', async (ctx) => {
  const account = ctx.target.accounts.prod;
  if (!account || !ctx.target.environments.prod) return ctx.notApplicable('needs PROD with an account');
  await ctx.configure();
  const { failure } = await runSoapWorkloadSettled(ctx, { sessionless: ['BargainFinderMaxRQ'], inSession: ['OTA_PingRQ'] }, 'prod');
  const sent = parsed(envelopes((await ctx.events()).filter((e) => e.env === 'prod')));
  for (const { envelope } of sent) failOn(soap05CpaIdProblem(envelope, account.pcc));
  // What it sent there is judged; a workflow that failed is another rule's matter (a session or token of CERT used in
  // PROD, ENV-02's; a refused UsernameToken or token carrier, SOAP-03's or SOAP-04's), not an eb:CPAId's.
  if (failure !== undefined) {
    const explained = explainFailure(failure, await ctx.events(), 'token', ['SOAP-05'], await ctx.history());
    if (explained instanceof PrerequisiteFailed) throw explained;
    throw new PrerequisiteFailed(`the client's workflow in PROD failed (${failure instanceof Error ? failure.message : String(failure)}) after its requests there were judged`, ['ENV-02', 'SOAP-03', 'SOAP-04']);
  }
}, { clauses: ['SOAP-05.cpaid'] });
