import type { SimRequest, SimResponse } from './http.ts';
import type { DefectId } from './defects.ts';
import type { LatitudeProfile } from './latitude.ts';

/**
 * What a gateway in front of the service does to its traffic, for the simulator: every deployed service has one.
 * A throttling front (the profile's `throttle`) is conforming: the document is silent on throttling, and the
 * transport waits a throttle out. So is one that answers a request now and then with a 502 or 504 page of its own (the
 * profile's `gatewayErrors`): the transport sends the request again. The fronts among the defects are deviations of a gateway's own making, judged like
 * any other answer: a page for missing credentials (ERR-01), one body for every 401 (ERR-01, ERR-02), SOAP faults
 * replaced with a page (ERR-04, STOK-03, SOAP-02).
 */

/** Every how many requests a throttling front throttles one. */
export const THROTTLE_EVERY = 10;

/** What nginx sends for a 401 it answers itself. */
export const GATEWAY_401_PAGE = '<html>\r\n<head><title>401 Authorization Required</title></head>\r\n<body>\r\n<center><h1>401 Authorization Required</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
/** What a gateway sends instead of a SOAP fault. */
export const GATEWAY_500_PAGE = '<html>\r\n<head><title>500 Internal Server Error</title></head>\r\n<body>\r\n<center><h1>500 Internal Server Error</h1></center>\r\n<hr><center>gateway</center>\r\n</body>\r\n</html>\r\n';
export const GATEWAY_502_PAGE = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
export const GATEWAY_504_PAGE = '<html>\r\n<head><title>504 Gateway Time-out</title></head>\r\n<body>\r\n<center><h1>504 Gateway Time-out</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
export const GATEWAY_503_PAGE = '<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
/** The one body a rewriting gateway gives every 401 of the token endpoint. */
export const UNIFORM_401_BODY = '{"error":"invalid_client","error_description":"Client authentication failed"}';

const html = (status: number, body: string, headers: Record<string, string> = {}): SimResponse => ({ kind: 'response', status, headers: { 'content-type': 'text/html', ...headers }, body });

export interface Front {
  /** Requests seen by the front (what its throttle counts). */
  seen: number;
  /** A caching gateway's 401s (defect api01-gateway-cached-401), by environment, method and path: how often each is served again. */
  cached401?: Map<string, { readonly response: SimResponse; left: number }>;
}

/** How many later requests to a REST API a caching gateway answers with the 401 it kept (api01-gateway-cached-401). */
export const CACHED_401_USES = 3;

const cacheKey = (req: SimRequest): string => `${req.env} ${req.method} ${req.path}`;

/**
 * The front's own answer, before the service sees the request (a throttle; a page for a token request without
 * credentials), or `undefined` to pass the request on.
 */
export function frontAnswer(front: Front, profile: LatitudeProfile, defects: ReadonlySet<DefectId>, req: SimRequest, tokenPath: string): SimResponse | undefined {
  front.seen++;
  if (profile.throttle !== 'none' && front.seen % THROTTLE_EVERY === THROTTLE_EVERY - 3) {
    return profile.throttle === '429'
      ? { kind: 'response', status: 429, headers: { 'content-type': 'text/plain', 'retry-after': '0' }, body: 'Too Many Requests' }
      : html(503, GATEWAY_503_PAGE);
  }
  // A gateway's error on its own (the service behind it did not answer that request, or not in time): conforming, the
  // document gives the service neither status; the transport sends the request again.
  if (profile.gatewayErrors !== 'none' && front.seen % THROTTLE_EVERY === THROTTLE_EVERY - 6) {
    return profile.gatewayErrors === '502' ? html(502, GATEWAY_502_PAGE) : html(504, GATEWAY_504_PAGE);
  }
  // A 401 a caching gateway kept (only with its defect on: frontRewrite asked), whatever the request's token.
  const cached = front.cached401?.get(cacheKey(req));
  if (cached && cached.left > 0) {
    cached.left--;
    return cached.response;
  }
  // The defects are asked about last, when they would change the answer: the self-test reuses a file's defect-free
  // verdicts when its simulator never asked (`ConsultedDefects`).
  if (req.path === tokenPath && req.headers.authorization === undefined && defects.has('err01-gateway-401-page')) {
    return html(401, GATEWAY_401_PAGE, { 'www-authenticate': 'Basic realm="token"' });
  }
  return undefined;
}

/** The service's answer as the front passes it on (rewritten by a deviating gateway). */
export function frontRewrite(front: Front, defects: ReadonlySet<DefectId>, req: SimRequest, res: SimResponse, paths: { token: string; soap: string }): SimResponse {
  if (res.kind !== 'response') return res;
  // A gateway that caches a REST API's 401 under a key without the Authorization header: the next requests to that API
  // get it too, a valid token's as well.
  if (req.path !== paths.token && req.path !== paths.soap && res.status === 401 && defects.has('api01-gateway-cached-401')) {
    (front.cached401 ??= new Map()).set(cacheKey(req), { response: res, left: CACHED_401_USES });
  }
  if (req.path === paths.token && res.status === 401 && defects.has('err02-gateway-uniform-401')) {
    return { kind: 'response', status: 401, headers: { 'content-type': 'application/json' }, body: UNIFORM_401_BODY };
  }
  if (req.path === paths.soap && /<(?:[\w.-]+:)?Fault[\s>]/.test(res.body) && defects.has('err04-gateway-fault-page')) {
    return html(500, GATEWAY_500_PAGE);
  }
  return res;
}
