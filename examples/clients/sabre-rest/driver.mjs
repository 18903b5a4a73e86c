// A driver around sabre-rest, a REST SDK written for this service: `createSabreClient({ baseUrl, auth:
// createOAuthV2({ baseUrl, clientId, clientSecret }) })` as its README shows, one client per environment, and its
// generic `client.request()` for the API the harness names (the SDK's token handling, caching and 401 retry are
// what is checked). The Client ID is built as the interface document says; the SDK encodes it. REST only.
//
//   npx tds-conformance run --suite client --client "node examples/clients/sabre-rest/driver.mjs"
import { createOAuthV2, createSabreClient, SabreApiResponseError, SabreAuthenticationError } from 'sabre-rest';
import { bodyOf, clientIdOf, DriverError, environmentOf, serve } from '../libraries/driver-kit.mjs';

let environments = {};

serve({
  async configure(request) {
    const next = {};
    for (const [name, env] of Object.entries(request.environments ?? {})) {
      try {
        const auth = createOAuthV2({ baseUrl: env.restBaseUrl, clientId: clientIdOf(env.credentials), clientSecret: env.credentials.password });
        next[name] = { client: createSabreClient({ baseUrl: env.restBaseUrl, auth }), baseUrl: env.restBaseUrl };
      } catch (err) {
        throw new DriverError('protocol', `sabre-rest refused the configuration: ${err.message}`);
      }
    }
    environments = next;
  },
  async 'rest.call'(request) {
    const env = environmentOf(environments, request.environment);
    try {
      const response = await env.client.request({
        method: request.method.toUpperCase(),
        url: `${env.baseUrl}${request.path}`,
        headers: request.body === undefined ? {} : { 'Content-Type': 'application/json' },
        ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
        signal: AbortSignal.timeout(10_000),
      });
      return { status: response.status, body: bodyOf(response.body) };
    } catch (err) {
      // A refusal the SDK could not recover from: its token request was refused (the service's error and
      // error_description kept unchanged), or an API still refused the token after the SDK's one retry.
      if (err instanceof SabreAuthenticationError && err.statusCode !== undefined) {
        if (err.statusCode === 403) return { status: 403, body: err.responseBody ?? null };
        const body = typeof err.responseBody === 'object' && err.responseBody !== null ? err.responseBody : {};
        throw new DriverError('auth', `sabre-rest: ${err.statusCode} refused`, {
          status: err.statusCode,
          ...(typeof body.error === 'string' && { code: body.error }),
          ...(typeof body.error_description === 'string' && { description: body.error_description }),
        });
      }
      // Any other HTTP status the API ended with is a result.
      if (err instanceof SabreApiResponseError) return { status: err.statusCode, body: err.responseBody ?? null };
      throw new DriverError('transport', `sabre-rest: ${err.message}`);
    }
  },
  async shutdown() {},
});
