import { http, HttpResponse, type HttpHandler } from 'msw';
import { ENVIRONMENTS, type Environment } from '../catalog/index.ts';
import type { SimCore } from './core.ts';
import { SOAP_PATH } from './core.ts';
import type { SimRequest } from './http.ts';
import type { SimEndpoints } from './server.ts';

/** Addresses the in-process simulator answers on through MSW. `.test` names never resolve on a real network. */
export const inProcessUrls: Readonly<Record<Environment, SimEndpoints>> = {
  cert: { restBaseUrl: 'https://api.cert.sim.tds.test', soapUrl: `https://webservices.cert.sim.tds.test${SOAP_PATH}` },
  prod: { restBaseUrl: 'https://api.prod.sim.tds.test', soapUrl: `https://webservices.prod.sim.tds.test${SOAP_PATH}` },
};

/**
 * MSW request handlers over the simulator core, for `setupServer(...)` in a user's own tests or in-process
 * TypeScript clients. Each environment answers on its own REST and SOAP origins.
 */
export function createSimHandlers(core: SimCore, urls: Readonly<Record<Environment, SimEndpoints>> = inProcessUrls): HttpHandler[] {
  return ENVIRONMENTS.flatMap((env) => {
    const origins = [...new Set([new URL(urls[env].restBaseUrl).origin, new URL(urls[env].soapUrl).origin])];
    return origins.map((origin) =>
      http.all(`${origin}/*`, async ({ request }) => {
        const url = new URL(request.url);
        const headers: Record<string, string> = {};
        request.headers.forEach((value, name) => {
          headers[name.toLowerCase()] = value;
        });
        const simRequest: SimRequest = { env, method: request.method, path: url.pathname, query: url.search.slice(1), headers, body: await request.text() };
        const answer = core.handle(simRequest);
        if (answer.kind === 'drop') return HttpResponse.error();
        if (answer.kind === 'hang') return new Promise<never>(() => {});
        return new HttpResponse(answer.body, { status: answer.status, headers: answer.headers });
      }),
    );
  });
}
