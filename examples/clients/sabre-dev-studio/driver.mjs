// A driver around sabre-dev-studio, the service's earlier official Node SDK: `new SabreDevStudio({ client_id,
// client_secret, uri })` and `get(endpoint, options, callback)` / `post(…)` as its README shows, one instance per
// environment. The SDK logs with bunyan to stdout (a JSON line without "id" when a token request fails): the
// harness reads such lines as diagnostics, not answers. REST only.
//
//   npx tds-conformance run --suite client --client "node examples/clients/sabre-dev-studio/driver.mjs"
import SabreDevStudio from 'sabre-dev-studio';
import { bodyOf, clientIdOf, DriverError, environmentOf, serve } from '../libraries/driver-kit.mjs';

let environments = {};

/** The SDK calls back at most once, and not at all for a status it has no name for: bounded by a time limit. */
function call(sds, method, path, body) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new DriverError('transport', 'sabre-dev-studio did not call back within 10 s')), 10_000);
    const done = (err, data, response) => {
      clearTimeout(timer);
      // An answer the SDK passes on (its callback's third argument): the API's status is the result.
      if (response && typeof response.statusCode === 'number') {
        resolve({ status: response.statusCode, body: bodyOf(typeof data === 'string' ? data : undefined) });
      } else if (err && typeof err.error === 'string') {
        // A refused token request whose body the SDK kept (simple-errors' Error.http copies it onto the error).
        reject(new DriverError('auth', `sabre-dev-studio: token request refused (${err.status})`, {
          code: err.error,
          ...(typeof err.error_description === 'string' && { description: err.error_description }),
          ...(typeof err.status === 'number' && { status: err.status }),
        }));
      } else if (err) {
        // The SDK's own error, as it surfaces it (for a refused token request: "Internal Server Error", status 500).
        reject(new DriverError('protocol', `sabre-dev-studio: ${err.message}`, { ...(typeof err.status === 'number' && { status: err.status }) }));
      } else {
        reject(new DriverError('transport', 'sabre-dev-studio called back with neither an answer nor an error'));
      }
    };
    if (method === 'GET') sds.get(path, {}, done);
    else sds.post(path, JSON.stringify(body ?? {}), { 'Content-Type': 'application/json' }, done);
  });
}

serve({
  async configure(request) {
    const next = {};
    for (const [name, env] of Object.entries(request.environments ?? {})) {
      try {
        next[name] = new SabreDevStudio({ client_id: clientIdOf(env.credentials), client_secret: env.credentials.password, uri: env.restBaseUrl });
      } catch (err) {
        throw new DriverError('protocol', `sabre-dev-studio refused the configuration: ${err.message}`);
      }
    }
    environments = next;
  },
  async 'rest.call'(request) {
    return call(environmentOf(environments, request.environment), request.method.toUpperCase(), request.path, request.body);
  },
  async shutdown() {},
});
