#!/usr/bin/env node
// An ordinary application built on one of the published client libraries of examples/clients/ (simple-oauth2,
// sabre-rest, sabre-dev-studio), used as its documentation shows, with no driver: it reads where the service is and
// its account from the environment and runs the same small workload as examples/observe/app.py. Run it under the
// observing proxy, which sets those variables and judges what it sends:
//
//   npx tds-conformance observe --upstream sim -- node examples/observe/library-app.mjs sabre-rest
//
// Variables: TDS_CERT_REST_URL, TDS_CERT_EPR, TDS_CERT_PCC, TDS_CERT_PASSWORD (and the same for PROD, optional),
// TDS_<ENV>_REST_DOMAIN (default AA).
import { createOAuthV2, createSabreClient } from 'sabre-rest';
import SabreDevStudio from 'sabre-dev-studio';
import simpleOauth2 from 'simple-oauth2';

const THEMES = '/v1/lists/supported/shop/themes';

/** Per library: from an environment's URL and account, a function that GETs a path (token handling is the library's). */
const LIBRARIES = {
  'simple-oauth2': ({ url, clientId, password }) => {
    // As its documentation shows: getToken(), reuse until expired(). The library has no single flight: concurrent
    // calls share one pending request here, as an application would write it.
    const client = new simpleOauth2.ClientCredentials({ client: { id: clientId, secret: password }, auth: { tokenHost: url, tokenPath: '/v2/auth/token' } });
    let held;
    let pending;
    return async (path) => {
      if (!held || held.expired()) {
        pending ??= client.getToken({}).finally(() => (pending = undefined));
        held = await pending;
      }
      const response = await fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${held.token.access_token}` } });
      await response.arrayBuffer();
      return response.status;
    };
  },
  'sabre-rest': ({ url, clientId, password }) => {
    const client = createSabreClient({ baseUrl: url, auth: createOAuthV2({ baseUrl: url, clientId, clientSecret: password }) });
    return async (path) => (await client.request({ method: 'GET', url: `${url}${path}`, headers: {} })).status;
  },
  'sabre-dev-studio': ({ url, clientId, password }) => {
    const sds = new SabreDevStudio({ client_id: clientId, client_secret: password, uri: url });
    return (path) => new Promise((resolve, reject) => {
      sds.get(path, {}, (err, _data, response) => (response ? resolve(response.statusCode) : reject(err ?? new Error('no answer'))));
    });
  },
};

function environments() {
  const out = {};
  for (const name of ['cert', 'prod']) {
    const get = (key) => process.env[`TDS_${name.toUpperCase()}_${key}`];
    if (!get('REST_URL')) continue;
    out[name] = { url: get('REST_URL'), clientId: `V1:${get('EPR')}:${get('PCC')}:${get('REST_DOMAIN') || 'AA'}`, password: get('PASSWORD') };
  }
  return out;
}

async function main() {
  const library = process.argv[2];
  const make = LIBRARIES[library];
  if (!make) {
    process.stderr.write(`library-app.mjs: name a library: ${Object.keys(LIBRARIES).join(', ')}\n`);
    return 2;
  }
  const envs = environments();
  if (!envs.cert) {
    process.stderr.write('library-app.mjs: set TDS_CERT_REST_URL, TDS_CERT_EPR, TDS_CERT_PCC and TDS_CERT_PASSWORD (observe sets them)\n');
    return 2;
  }
  const failures = [];
  const calls = Object.fromEntries(Object.entries(envs).map(([name, env]) => [name, make(env)]));
  const call = (env) => calls[env](THEMES).catch((err) => failures.push(err?.message ?? String(err)));
  // Several calls at once with no token held, then more with the same token, in each environment configured.
  await Promise.all([0, 1, 2, 3].map(() => call('cert')));
  for (let i = 0; i < 3; i++) await call('cert');
  if (calls.prod) {
    await call('prod');
    await call('prod');
  }
  // A library that cannot get a token is the application's failure to report, not a crash.
  for (const message of failures) process.stderr.write(`library-app.mjs (${library}): ${message}\n`);
  return 0;
}

process.exitCode = await main();
