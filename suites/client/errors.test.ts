import { clientTest, ConfigurationRefused, op, type ClientContext } from '../../harness/checks/client.ts';
import { failOn, PrerequisiteFailed } from '../../harness/checks/index.ts';
import { err06KeepsProblem, err06LoopProblem, serviceSaid } from '../../harness/judges/index.ts';
import { ClientError } from '../../harness/clients/protocol.ts';
import { restEndpoints, type Environment } from '../../harness/catalog/index.ts';
import { tokenRequests } from './support/events.ts';

const themes = restEndpoints.find((e) => e.key === 'shop-themes')!;

/**
 * ERR-06 in `env`: the client configured for that environment alone with a wrong password. In each environment (a
 * blind client lost the description in PROD alone).
 */
async function reportsInvalidClient(ctx: ClientContext, env: Environment): Promise<void> {
  const main = ctx.target.accounts[env];
  if (!main || !ctx.target.environments[env]) return ctx.notApplicable(`the target has no ${env.toUpperCase()} account`);
  let error: unknown;
  let configured = true;
  try {
    await ctx.configure({ accounts: { [env]: { ...main, password: `${main.password}-wrong` } }, environments: [env] });
  } catch (err) {
    // A client that obtains its token as it is configured may report the refusal there: an authentication error is
    // the report this rule judges, not a configuration the client refused.
    if (!(err instanceof ConfigurationRefused && err.kind === 'auth' && err.error)) throw err;
    error = err.error;
    configured = false;
  }
  if (configured) {
    try {
      await op('rest.call', () => ctx.client.restCall({ environment: env, method: 'GET', path: themes.path }));
    } catch (err) {
      if (err instanceof PrerequisiteFailed) throw err;
      error = err;
    }
  }
  const requests = tokenRequests(await ctx.events());
  // ERR-06 judges what the client does with invalid_client: a token request refused for its form (invalid_request,
  // unsupported_grant_type: REST-01 judges the form) never reached the credentials, so there is no invalid_client.
  const refused = requests.filter((e) => e.outcome === 'token-refused-credentials' || e.outcome === 'token-refused-syntax').at(-1);
  if (!refused) {
    const malformed = requests.filter((e) => e.outcome === 'token-refused-request');
    if (malformed.length) throw new PrerequisiteFailed(`the service refused the client's ${malformed.length} token request(s) for their form (HTTP ${malformed.at(-1)!.status}, not invalid_client), so its answer to a wrong password could not be seen`, ['REST-01']);
    throw new PrerequisiteFailed('the client sent no token request that the service refused (a wrong password)', ['REST-01']);
  }
  // What the client surfaces is compared with what the service sent in that exchange, not with a fixed text.
  const sent = serviceSaid(refused.answer, refused.status);
  // The judges observe uses too (harness/judges): what the client reports only a driven client shows; every token
  // request of the check answers its one call.
  const reported = error instanceof ClientError
    ? { kind: error.kind, code: error.code, description: error.description, ...(error.status !== undefined && { status: error.status }) }
    : error === undefined ? undefined : String(error);
  failOn(err06KeepsProblem(sent, reported));
  failOn(err06LoopProblem(requests.length));
}

clientTest('ERR-06', 'on invalid_client the client reports an auth error with the code and description, and retries at most once', (ctx) => reportsInvalidClient(ctx, 'cert'), { clauses: ["ERR-06.keeps-error", "ERR-06.no-retry-loop"] });

clientTest('ERR-06', 'in PROD too: on invalid_client the client reports an auth error with the code and description, and retries at most once', (ctx) => reportsInvalidClient(ctx, 'prod'), { clauses: ["ERR-06.keeps-error", "ERR-06.no-retry-loop"] });
