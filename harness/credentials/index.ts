export { decodeBase64Utf8, encodeBase64Utf8 } from './base64.ts';
export {
  basicAuthorization, buildClientId, clientIdFor, decodeAuthorization, decodeCredentials, encodeCredentials, encodeRestCredentials, parseClientId,
} from './rest.ts';
export type { ClientIdParts, CredentialSyntaxCode, DecodedCredentials, DecodedLayers, RestCredentials } from './rest.ts';
