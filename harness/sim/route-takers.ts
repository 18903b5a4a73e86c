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
  // Gateways in front of the service (harness/sim/front.ts): one that throttles, one with errors of its own now and
  // then, and three of their own making.
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
    id: 'gateway-502',
    takes: 'every tenth request, answered with a 502 Bad Gateway page by a gateway before the service sees it (sent again, it is served)',
    profile: { gatewayErrors: '502' },
    breaks: [],
  },
  {
    id: 'gateway-504',
    takes: 'every tenth request, answered with a 504 Gateway Time-out page by a gateway before the service sees it (sent again, it is served)',
    profile: { gatewayErrors: '504' },
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
  {
    defect: 'life01-rest-takes-expired-soap-token',
    taker: 'soap-token-400-on-rest',
    excused: ['LIFE-01'],
    // Undecidable: the REST APIs answer every TokenCreateRQ token alike, fresh or expired, so the defect never shows.
    reason: 'the REST APIs answer every TokenCreateRQ token 400 (XPROTO-02 fails), fresh or expired alike: whether they would take one past '
      + 'expires_in never reaches the wire, and LIFE-01 judges a TokenCreateRQ token\'s lifetime on REST only against one served there fresh',
  },
  ...([['source-ip-demanded', 'REST-02'], ['soap-token-400-on-rest', 'XPROTO-02']] as const).map(([taker, rule]) => ({
    defect: 'cred03-single-base64-expected' as const,
    taker,
    excused: [rule],
    // Undecidable: the rule compares a refused request with the same one served, and no REST token is ever served.
    reason: `the service refuses every correctly built REST credential (CRED-03 fails), so no token request is ever served: ${rule} compares a refusal `
      + 'with the same request served with one factor changed, and there is none to compare with',
  })),
  // Gateways in front of the service: where the gateway's own answer replaces the one that shows the defect, the
  // deviation never reaches the wire, and no verdict on it can follow from what a caller receives.
  ...(['gateway-401-page', 'gateway-uniform-401'] as const).map((taker) => ({
    defect: 'cred03-single-base64-expected' as const,
    taker,
    excused: taker === 'gateway-401-page' ? (['ERR-01', 'ERR-03'] as const) : (['ERR-01', 'ERR-02'] as const),
    // Undecidable: every correctly built credential is refused, so no served request exists to hold the bad ones against.
    reason: 'the service refuses every correctly built credential (CRED-03 fails): ERR-01..03 judge an answer to bad credentials against the same '
      + 'request served with good ones, and none is served, so the gateway\'s answers to bad credentials cannot be told from the service\'s refusing everything',
  })),
  {
    defect: 'err03-status-400',
    taker: 'gateway-uniform-401',
    excused: ['ERR-01', 'ERR-02'],
    // Not on the wire: the gateway rewrites 401s, and the service sends none.
    reason: 'the service answers token errors with 400 (ERR-03 warns), and the gateway rewrites 401 answers only: it has nothing to rewrite, so its '
      + 'deviation does not reach the wire and ERR-01 and ERR-02 see the service\'s own answers',
  },
  ...(['err03-secret-echoed', 'err03-secret-start-echoed'] as const).map((defect) => ({
    defect,
    taker: 'gateway-uniform-401',
    excused: ['ERR-03'] as const,
    // Not on the wire: the gateway's one body replaces the body that echoed the secret.
    reason: 'the gateway replaces every 401 body with its own, so the service\'s body that echoed the secret never reaches the caller: ERR-03.no-secret holds on the wire',
  })),
  {
    defect: 'stok01-no-token',
    taker: 'gateway-fault-page',
    excused: ['STOK-03'],
    // Undecidable: STOK-03 holds a refusal against a TokenCreateRQ that is served a token, and none is.
    reason: 'TokenCreateRQ with good credentials returns no token (STOK-01 fails), and a refusal comes as the gateway\'s page: STOK-03 (a fault and no '
      + 'token for wrong credentials) has no served request to hold the refusal against, and no fault to read',
  },
  ...([['sess01-no-keepalive', 'SESS-01'], ['sess04-new-session-ends-older', 'SESS-01'], ['sess02-close-keeps-slot', 'SESS-02'], ['sess02-used-close-keeps-slot', 'SESS-02'], ['sess04-timeout-keeps-slot', 'SESS-04'], ['err05-fault-status-200', 'ERR-05']] as const).map(([defect, rule]) => ({
    defect,
    taker: 'gateway-fault-page',
    excused: [rule],
    // Not on the wire: the defect shows only in a fault, and the gateway replaces every fault with a page.
    reason: `the defect shows only in a SOAP fault (a refusal, a pool-full answer, or the fault's status), and the gateway replaces every fault with a page of its own: ${rule} cannot be judged from what the caller receives`,
  })),
  {
    defect: 'access02-soap-token-any-agency',
    taker: 'soap-token-400-on-rest',
    excused: ['ACCESS-02'],
    // Not on the wire: the REST APIs answer every TokenCreateRQ token 400, the other agency's too.
    reason: 'the REST APIs answer a TokenCreateRQ token with 400 whoever obtained it (XPROTO-02 fails), so the other agency\'s TokenCreateRQ token is refused '
      + 'by the agency-specific REST API as well: the defect (that route let through) never reaches the wire, and ACCESS-02 holds there',
  },
  {
    defect: 'access04-session-bypass',
    taker: 'default-probe-action-missing',
    excused: ['ACCESS-04'],
    // Not on the wire: the one SOAP API that needs the amendment is not offered.
    reason: 'the service does not offer BargainFinderMaxRQ, its one SOAP API that needs the amendment: the defect (a session token let through to such an '
      + 'API) never reaches the wire, and ACCESS-04 holds on the APIs there are',
  },
  {
    defect: 'xproto03-separate-soap-password',
    taker: 'gateway-fault-page',
    // No route: SOAP refuses the only credentials there are, and the refusal comes as a page.
    reason: 'SOAP refuses the account\'s password with a fault the gateway replaces by a page: no SOAP token exists and no SOAP refusal can be read, so '
      + 'XPROTO-03, ERR-04, STOK-03 and every session rule have nothing to judge',
  },
];
