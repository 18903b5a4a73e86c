/** The limits of the interface document ("Limits"). */
export const limits = {
  /** `expires_in` of a sessionless token from `POST /v2/auth/token`. */
  accessTokenLifetimeSeconds: 604800,
  /** The earlier lifetime, replaced by 604800. A service still answering this is out of date. */
  previousAccessTokenLifetimeSeconds: 390,
  /** Default inactivity timeout of a session; set per account when the credentials are created. */
  defaultSessionTimeoutSeconds: 15 * 60,
  /** Each call to an authentication API yields exactly this many tokens. */
  tokensPerCall: 1,
} as const;

/** The literal `token_type` of the REST token response. */
export const TOKEN_TYPE = 'bearer';
/** The fixed first element of the REST Client ID; unrelated to the v2 of the token endpoint. */
export const CLIENT_ID_VERSION = 'V1';
/** Domain of the REST Client ID when a default domain is used. */
export const DEFAULT_REST_DOMAIN = 'AA';
/** Domain of the SOAP UsernameToken as usually seen (PUBLIC-FACTS.md). */
export const DEFAULT_SOAP_DOMAIN = 'DEFAULT';
export const TOKEN_PATH = '/v2/auth/token';
export const GRANT_TYPE = 'client_credentials';
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
