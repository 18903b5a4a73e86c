import { clientTest, op } from '../../harness/checks/client.ts';
import { CheckFailure, expectEqual, expectThat } from '../../harness/checks/index.ts';
import { ClientError } from '../../harness/clients/protocol.ts';
import { restEndpoints, restTokenErrors } from '../../harness/spec/index.ts';
import { tokenRequests } from './support/events.ts';

const themes = restEndpoints.find((e) => e.key === 'shop-themes')!;

clientTest('ERR-06', 'on invalid_client the client reports an auth error with the code and description, and retries at most once', async (ctx) => {
  const main = ctx.target.accounts.cert!;
  await ctx.configure({ accounts: { cert: { ...main, password: `${main.password}-wrong` } }, environments: ['cert'] });
  let error: unknown;
  try {
    await op('rest.call', () => ctx.client.restCall({ environment: 'cert', method: 'GET', path: themes.path }));
  } catch (err) {
    error = err;
  }
  if (!(error instanceof ClientError)) throw new CheckFailure('a REST call with a wrong password did not fail with an error', { expected: 'an auth error', actual: error === undefined ? 'success' : String(error) });
  expectEqual('error kind the client reports', error.kind, 'auth');
  expectEqual('error code the client reports (the service\'s)', error.code, 'invalid_client');
  expectEqual('error description the client reports (the service\'s)', error.description, restTokenErrors['wrong-client'].publicDescription);
  const attempts = tokenRequests(await ctx.events()).length;
  expectThat(attempts <= 2, 'the client retried invalid_client in a loop', { expected: 'at most 2 token requests', actual: `${attempts} token requests` });
}, { clauses: ["ERR-06.keeps-error", "ERR-06.no-retry-loop"] });
