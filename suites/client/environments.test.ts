import fc from 'fast-check';
import { bearerRefusal, clientProperty, op } from '../../harness/checks/client.ts';
import { failOn, PrerequisiteFailed } from '../../harness/checks/index.ts';
import { env02Problems } from '../../harness/judges/index.ts';
import { ClientError, type ClientAdapter } from '../../harness/clients/protocol.ts';
import { restEndpoints, type Environment } from '../../harness/catalog/index.ts';
import { issuingEnvironment } from './support/events.ts';

const themes = restEndpoints.find((e) => e.key === 'shop-themes')!;
/**
 * The REST APIs a workload calls: every one that takes sessionless tokens, GET and POST (a blind client sent its CERT
 * token to PROD on POST calls only, and the workload called one GET API).
 */
const sessionlessApis = restEndpoints.filter((e) => e.accepts.includes('sessionless'));
const firstPost = sessionlessApis.find((e) => e.method === 'POST')!;
const callOf = (e: (typeof restEndpoints)[number]) => ({ method: (e.method ?? 'GET') as 'GET' | 'POST', path: `${e.path}${e.query ? `?${e.query}` : ''}` });

/** How a call of the workload is made: a REST call, a sessionless SOAP call, or a session (opened, pinged, closed). */
type Via = 'rest' | 'soap' | 'session';

/** A session in `env`: opened, pinged (the Refresh Session API) and closed, as a workflow in that environment would. */
async function sessionWorkflow(client: ClientAdapter, env: Environment): Promise<void> {
  const { session } = await client.openSession({ environment: env });
  try {
    await client.sessionCall({ session, action: 'OTA_PingRQ' });
  } finally {
    await client.closeSession({ session });
  }
}

clientProperty(
  'ENV-02',
  'the client requests its token from the environment it calls and never sends one environment\'s token to the other',
  fc.array(fc.record({ env: fc.constantFrom<Environment>('cert', 'prod'), via: fc.constantFrom<Via>('rest', 'soap', 'session'), api: fc.constantFrom(...sessionlessApis) }), { minLength: 2, maxLength: 8 }),
  async (ctx, calls) => {
    await ctx.configure();
    // A failed call ends the workload, but is judged after the event log: a token sent to the wrong environment is
    // this rule's failure whatever the client reported. Any other failure is explained by the check's wrapper (a
    // refused token request: skipped, naming the rule that judges it; else a fail quoting the client's error).
    let failure: unknown;
    for (const c of calls) {
      try {
        if (c.via === 'soap') await ctx.client.soapCall({ environment: c.env, action: 'BargainFinderMaxRQ' });
        else if (c.via === 'session') await sessionWorkflow(ctx.client, c.env);
        else await op('rest.call', () => ctx.client.restCall({ environment: c.env, ...callOf(c.api) }));
      } catch (err) {
        // A REST-only client is judged on its REST calls.
        if (c.via !== 'rest' && err instanceof ClientError && err.kind === 'unsupported') continue;
        failure = err;
        break;
      }
    }
    const events = await ctx.events();
    const history = await ctx.history();
    const from = issuingEnvironment(history);
    let judged = 0;
    for (const e of events) {
      if (!e.tokenUsed) continue;
      if (from.has(e.tokenUsed)) judged++;
      // The judge observe uses too (harness/judges).
      failOn(env02Problems({ calledEnv: e.env, tokenEnv: from.get(e.tokenUsed), what: `${e.method} ${e.path}${e.action ? ` ${e.action}` : ''}` })[0]);
    }
    // Tokens the service never issued (a client that alters its token: API-03) show nothing of where a token came from.
    const refusal = judged === 0 ? bearerRefusal(events, history) : undefined;
    if (refusal) throw new PrerequisiteFailed(refusal.reason, refusal.after);
    if (failure !== undefined) throw failure;
  },
  {
    numRuns: 6,
    // Tried first whatever the seed: both environments over REST (a GET and a POST API), sessionless SOAP and a session,
    // so that a REST-only client is judged on its REST calls with every seed.
    examples: [([['cert', 'rest', themes], ['prod', 'rest', themes], ['cert', 'soap', themes], ['prod', 'soap', themes], ['cert', 'session', themes], ['prod', 'session', themes], ['cert', 'rest', firstPost], ['prod', 'rest', firstPost], ['cert', 'rest', themes]] as const).map(([env, via, api]) => ({ env, via, api }))],
    clauses: ["ENV-02.token-from-called-environment", "ENV-02.no-cross-environment-token"], needs: 'token' },
);
