// A driver around simple-oauth2 (a generic OAuth 2.0 client), configured the way its documentation shows for the
// client-credentials grant: `new ClientCredentials({ client: { id, secret }, auth: { tokenHost, tokenPath } })`,
// `getToken()`, and a new token when `accessToken.expired()`. The Client ID is built as the interface document says
// (V1:<userid>:<group>:<domain>); the encoding of the Authorization header is left to the library, as a user of
// the library would. REST only: the SOAP ops are answered `unsupported`.
//
//   npx tds-conformance run --suite client --client "node examples/clients/simple-oauth2/driver.mjs"
import simpleOauth2 from 'simple-oauth2';
import { bodyOf, clientIdOf, DriverError, environmentOf, serve } from '../libraries/driver-kit.mjs';

const { ClientCredentials } = simpleOauth2;
const TOKEN_PATH = '/v2/auth/token';

/** Per environment: the library's client, the base URL, the token held. */
let environments = {};

/** The library's own validation error, without the values it quotes (they may be secrets). */
function refusal(err) {
  const details = Array.isArray(err?.details) ? err.details.map((d) => `${(d.path ?? []).join('.')}: ${d.type}`).join('; ') : '';
  return new DriverError('protocol', `simple-oauth2 refused the configuration${details ? ` (${details})` : ''}`);
}

/** The library's error for a refused token request, with what the service said kept unchanged (ERR-06). */
function tokenError(err) {
  const status = err?.output?.statusCode;
  const payload = err?.data?.payload;
  const body = payload && typeof payload === 'object' && !Buffer.isBuffer(payload) ? payload : bodyOf(Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined);
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new DriverError('auth', `the token request was refused (${status})`, {
      status,
      ...(typeof body?.error === 'string' && { code: body.error }),
      ...(typeof body?.error_description === 'string' && { description: body.error_description }),
    });
  }
  return new DriverError(status ? 'protocol' : 'transport', `simple-oauth2: ${err?.message ?? String(err)}`);
}

async function tokenFor(env) {
  // As the library's documentation shows: reuse the token until it has expired, then get a new one. Concurrent calls
  // share one request for it (the library has no single flight of its own).
  if (!env.accessToken || env.accessToken.expired()) {
    env.pending ??= env.client.getToken({}).finally(() => {
      env.pending = undefined;
    });
    try {
      env.accessToken = await env.pending;
    } catch (err) {
      env.accessToken = undefined;
      throw tokenError(err);
    }
  }
  return env.accessToken.token.access_token;
}

serve({
  async configure(request) {
    const next = {};
    for (const [name, env] of Object.entries(request.environments ?? {})) {
      let client;
      try {
        client = new ClientCredentials({
          client: { id: clientIdOf(env.credentials), secret: env.credentials.password },
          auth: { tokenHost: env.restBaseUrl, tokenPath: TOKEN_PATH },
        });
      } catch (err) {
        throw refusal(err);
      }
      next[name] = { client, baseUrl: env.restBaseUrl, accessToken: undefined, pending: undefined };
    }
    environments = next;
  },
  async 'rest.call'(request) {
    const env = environmentOf(environments, request.environment);
    const token = await tokenFor(env);
    const response = await fetch(`${env.baseUrl}${request.path}`, {
      method: request.method.toUpperCase(),
      headers: { Authorization: `Bearer ${token}`, ...(request.body !== undefined && { 'Content-Type': 'application/json' }) },
      ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
      signal: AbortSignal.timeout(10_000),
    }).catch((err) => {
      throw new DriverError('transport', `the API call failed: ${err.message}`);
    });
    return { status: response.status, body: bodyOf(await response.text()) };
  },
  async shutdown() {},
});
