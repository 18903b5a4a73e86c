import { CLIENT_ID_VERSION } from './limits.ts';

/**
 * The REST credential encoding of the interface document ("Authentication › Rules for the REST token request"),
 * as data. The one implementation of it is `harness/credentials`.
 */
export const credentialEncoding = {
  section: 'Authentication › Rules for the REST token request',
  clientIdFormat: `${CLIENT_ID_VERSION}:<userid>:<group>:<domain>`,
  steps: [
    'Build the Client ID: `V1:<userid>:<group>:<domain>` (colon-joined).',
    'Base64-encode the Client ID. Base64-encode the password. Join the two encoded strings with a colon: `<ENCODED_CLIENT_ID>:<ENCODED_PASSWORD>`.',
    'Base64-encode that joined string once more. The result is `<ENCODED_CREDENTIALS>`.',
    'Send `Authorization: Basic <ENCODED_CREDENTIALS>`.',
  ],
  /** Text is encoded as UTF-8 before base64 (the document does not say; UTF-8 is what HTTP clients use). */
  charset: 'utf-8',
  /** The public test vector (PUBLIC-FACTS.md). */
  vector: {
    clientId: 'V1:userid:group:domain',
    userid: 'userid',
    group: 'group',
    domain: 'domain',
    password: '12345',
    encoded: 'VmpFNmRYTmxjbWxrT21keWIzVndPbVJ2YldGcGJnPT06TVRJek5EVT0=',
  },
} as const;
