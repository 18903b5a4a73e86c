/**
 * Deliberate deviations of the reference client, switched on one at a time by the mutant clients of
 * `fixtures/mutants/` so that the harness's self-test can prove each client rule's check fails when it must.
 * A real client never sets one; the reference client with no fault is the model to follow.
 *
 * Each fault is named `<rule-id>-<what>` after the rule it breaks.
 */
export const CLIENT_FAULTS = [
  // CRED — building REST credentials
  'cred01-no-v1',
  'cred01-wrong-order',
  'cred01-refresh-no-domain',
  'cred02-single-base64',
  'cred02-prod-password-at-cert',
  'cred04-soap-domain-as-default',
  'cred04-prod-soap-domain-as-default',
  // REST — the token request
  'rest01-json-body',
  'rest01-trailing-slash',
  'rest01-refresh-trailing-slash',
  'rest01-wrong-path',
  // API — calling REST APIs
  'api03-bearer-no-space',
  'api03-lower-case-method',
  'api03-prod-lower-case-later',
  'api04-token-per-call',
  'api05-no-single-flight',
  // LIFE — refresh
  'life03-keeps-refused-token',
  'life03-keeps-refused-soap-token',
  // SOAP — envelopes
  'soap01-no-message-data',
  'soap03-rest-domain',
  'soap03-no-organization',
  'soap03-two-references',
  'soap04-action-ota',
  'soap04-token-as-password',
  'soap04-close-security-namespace',
  'soap05-cpaid-epr',
  'soap05-prod-cpaid-epr',
  'soap05-conversation-per-call',
  // SESS — sessions
  'sess05-close-no-conversation-id',
  'sess05-close-no-pos',
  'sess06-never-closes',
  'sess07-reuses-refused-token',
  'sess08-pool-unbounded',
  'sess08-ta-limit-storm',
  // ENV — environments
  'env02-one-token-for-all',
  'env02-session-from-cert',
  'env02-cert-token-for-prod-post',
  // ERR — errors
  'err06-retry-loop',
  'err06-generic-error',
  'err06-prod-generic-error',
] as const;

export type ClientFault = (typeof CLIENT_FAULTS)[number];

/** Bounds that keep a misbehaving mutant finite, so that the self-test ends. */
export const FAULT_BOUNDS = {
  /** `sess08-ta-limit-storm`: SessionCreateRQ attempts after Client.ReachedTALimit, with no back-off. */
  taLimitAttempts: 20,
  /** `err06-retry-loop`: token requests after invalid_client. */
  invalidClientAttempts: 10,
  /** `sess07-reuses-refused-token`: sends of a refused session token within one call. */
  refusedTokenSends: 3,
} as const;

/**
 * The envelope-level faults, applied to the text of a built request. The reference client builds its envelopes with
 * `harness/soap`'s `buildRequest`, which writes only complete headers; these faults cut or duplicate parts afterwards.
 */
export function applyEnvelopeFaults(xml: string, action: string, faults: ReadonlySet<ClientFault>): string {
  let text = xml;
  if (faults.has('soap01-no-message-data')) text = text.replace(/<eb:MessageData>[\s\S]*?<\/eb:MessageData>/, '');
  if (faults.has('soap03-no-organization')) text = text.replace(/<Organization>[\s\S]*?<\/Organization>/, '');
  if (faults.has('soap03-two-references') && (action === 'TokenCreateRQ' || action === 'SessionCreateRQ')) {
    text = text.replace(/<eb:Reference\b[^>]*\/>/, (reference) => `${reference}${reference}`);
  }
  if (faults.has('soap04-close-security-namespace') && action === 'SessionCloseRQ') {
    // The Security header of the OASIS WS-Security 1.0 namespace, not the one the document's samples use.
    text = text.replaceAll('http://schemas.xmlsoap.org/ws/2002/12/secext', 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd');
  }
  if (faults.has('sess05-close-no-conversation-id') && action === 'SessionCloseRQ') {
    text = text.replace(/<eb:ConversationId>[\s\S]*?<\/eb:ConversationId>/, '');
  }
  return text;
}
