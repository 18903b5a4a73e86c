import type { RuleId } from '../catalog/index.ts';
import type { DefectId } from './defects.ts';
import type { LatitudeProfile } from './latitude.ts';

/**
 * What takes a route to the evidence away, for the defect-pair self-test: switched on together with a simulator
 * defect, it removes the way a check would normally reach that defect (the configured CERT account refused, a form
 * field demanded, SOAP tokens answered 400 on the REST APIs, the default probe action not offered). Where another
 * route exists, the defect's rule must still fail: a check that reports `skipped`, `error`, `not-applicable` or
 * `partial` instead has hidden a deviation behind a missing prerequisite.
 *
 * A route-taker is a defect of its own (then it breaks its own rules, which must fail too) or a conforming choice of
 * the latitude profile (then it breaks nothing).
 */
export interface RouteTaker {
  readonly id: string;
  /** The route it takes away, in words. */
  readonly takes: string;
  readonly defects?: readonly DefectId[];
  readonly profile?: Partial<LatitudeProfile>;
  /** The rules it breaks itself (those of its defects). */
  readonly breaks: readonly RuleId[];
  readonly mayFollow?: readonly RuleId[];
}

export const routeTakers = [
  {
    id: 'cert-account-refused',
    takes: 'REST tokens of the configured CERT account (PROD\'s account, other accounts and TokenCreateRQ still work)',
    defects: ['cred03-cert-account-refused'],
    breaks: ['CRED-03'],
  },
  {
    id: 'source-ip-demanded',
    takes: 'the document\'s token request as it stands (served only with the optional source_ip)',
    defects: ['rest02-source-ip-demanded'],
    breaks: ['REST-02'],
  },
  {
    id: 'soap-token-400-on-rest',
    takes: 'SOAP-issued tokens on the REST APIs (answered 400 invalid_request, while REST tokens are served)',
    defects: ['xproto02-soap-token-400'],
    breaks: ['XPROTO-02'],
  },
  {
    id: 'default-probe-action-missing',
    takes: 'the default sessionless probe action (BargainFinderMaxRQ is not offered; OTA_HotelAvailLLSRQ takes sessionless tokens)',
    profile: { sessionlessAction: 'OTA_HotelAvailLLSRQ', unknownActionFaultCode: 'Server.UnsupportedAction' },
    breaks: [],
  },
  // Gateways in front of the service (harness/sim/front.ts): one that throttles, and three of their own making.
  {
    id: 'throttling-429',
    takes: 'every tenth request, answered 429 Too Many Requests with Retry-After by a gateway before the service sees it',
    profile: { throttle: '429' },
    breaks: [],
  },
  {
    id: 'throttling-503',
    takes: 'every tenth request, answered with a 503 HTML page without Retry-After by a gateway before the service sees it',
    profile: { throttle: '503' },
    breaks: [],
  },
  {
    id: 'gateway-401-page',
    takes: 'the service\'s answer to a token request without an Authorization header (a gateway answers it with an HTML page)',
    defects: ['err01-gateway-401-page'],
    breaks: ['ERR-01', 'ERR-03'],
  },
  {
    id: 'gateway-uniform-401',
    takes: 'the service\'s own 401 bodies on the token endpoint (a gateway rewrites each into one body)',
    defects: ['err02-gateway-uniform-401'],
    breaks: ['ERR-01', 'ERR-02'],
  },
  {
    id: 'gateway-fault-page',
    takes: 'every SOAP fault (a gateway replaces each with an HTML 500 page)',
    defects: ['err04-gateway-fault-page'],
    breaks: ['ERR-04', 'STOK-03', 'SOAP-02'],
  },
] as const satisfies readonly RouteTaker[];

/**
 * The pairs exempted from the defect-pair self-test, each because the interface document leaves its verdict
 * undecidable (the document, not the harness, has no route to the evidence), with that reason: `tds-conformance
 * selftest --pairs` prints them. `excused` names the rules that cannot be judged (the pair still runs and its other
 * rules must fail); without it, no rule of the pair can be judged and it does not run. Add a pair here only with a
 * reason from the document: a pair whose evidence the harness merely fails to reach is a hidden deviation.
 */
export const pairsWithoutRoute: readonly { readonly defect: DefectId; readonly taker: string; readonly excused?: readonly RuleId[]; readonly reason: string }[] = [
  {
    defect: 'rest02-source-ip-rejected',
    taker: 'source-ip-demanded',
    // Undecidable: both forms refused alike, and the document does not let a refusal be blamed on the form.
    reason: 'the token request is refused with source_ip and without it, for every account: REST-02 compares the two answers and they are alike, '
      + 'and the document does not say a refusal is for the form rather than the credentials (credentials decide whether a token may be obtained; '
      + 'its list of errors is not complete), so no verdict on REST-02 follows from it, and no REST token exists for the rest of the suite',
  },
  {
    defect: 'stok01-no-token',
    taker: 'soap-token-400-on-rest',
    excused: ['XPROTO-02'],
    // Undecidable: XPROTO-02 needs a sessionless token from TokenCreateRQ, and the document offers no other source of one.
    reason: 'XPROTO-02 judges a sessionless token from TokenCreateRQ on REST, and TokenCreateRQ returns none (STOK-01 fails); the document names '
      + 'no other SOAP source of a sessionless token (SessionCreateRQ issues session tokens, and which APIs take those is per API)',
  },
  {
    defect: 'xproto03-separate-soap-password',
    taker: 'soap-token-400-on-rest',
    excused: ['XPROTO-02'],
    // Undecidable: SOAP refuses the only credentials the document gives the caller, so no TokenCreateRQ token exists.
    reason: 'SOAP refuses the account\'s password (XPROTO-03 fails), and the document gives a caller no other SOAP credentials (the same ones '
      + 'serve REST and SOAP): no token from TokenCreateRQ exists, so XPROTO-02 cannot be judged',
  },
];
