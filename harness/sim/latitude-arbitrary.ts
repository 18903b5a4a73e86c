/**
 * The latitude property's arbitrary (fast-check): every conforming profile of the simulator, the covering values of
 * harness/sim/latitude.ts and wider ones. A module of its own so that what serves a profile (the simulator, the
 * CLI's stand-in) does not load fast-check.
 */
import fc from 'fast-check';
import { PROFILE_CHOICES, type LatitudeProfile } from './latitude.ts';
import { ALPHABETS, type TokenShape } from './token-shape.ts';

const KEYS = Object.keys(PROFILE_CHOICES) as (keyof LatitudeProfile)[];

/** Random token shapes: any alphabet the shapes know, any length, any prefix and suffix; JWTs; UUIDs. */
const tokenShapes: fc.Arbitrary<TokenShape> = fc.oneof(
  fc.record({
    kind: fc.constant('chars' as const),
    prefix: fc.stringMatching(/^[A-Za-z0-9]{0,8}$/),
    suffix: fc.constantFrom('', '*', '==', '.x'),
    alphabet: fc.constantFrom(...ALPHABETS),
    length: fc.integer({ min: 16, max: 200 }),
  }),
  fc.record({ kind: fc.constant('jwt' as const), header: fc.constantFrom('eyJhbGciOiJSUzI1NiJ9', 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9'), payloadLength: fc.integer({ min: 20, max: 400 }), signatureLength: fc.integer({ min: 20, max: 86 }) }),
  fc.constant({ kind: 'uuid' as const }),
);

/** A wording that states its case of the Errors table (`describes` reads it as such), and not the other one. */
const wording = (verbs: readonly string[], nouns: readonly string[]) =>
  fc.tuple(fc.constantFrom(...verbs), fc.constantFrom(...nouns), fc.constantFrom('', '.', ' (see the documentation)')).map(([v, n, end]) => `${v} ${n}${end}`);

/** A faultstring that says "invalid or expired" and quotes the token (`%s`). */
const faultstrings = fc.tuple(fc.constantFrom('Invalid or expired', 'Expired or invalid', 'The invalid or expired'), fc.constantFrom('security token', 'binary security token', 'token'), fc.constantFrom(': %s', ' %s', ' (%s)'))
  .map(([a, b, c]) => `${a} ${b}${c}`);

/** The values the latitude property draws beyond the covering lists, per freedom. */
const WIDER: Partial<{ readonly [K in keyof LatitudeProfile]: fc.Arbitrary<LatitudeProfile[K]> }> = {
  tokenShape: tokenShapes,
  jsonContentType: fc.constantFrom('application/json', 'application/json;charset=UTF-8', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json;charset=ISO-8859-1'),
  extraHeaders: fc.subarray(['pragma', 'x-request-id', 'x-correlation-id', 'strict-transport-security', 'x-frame-options', 'server-timing']),
  syntaxDescription: wording(['Missing or malformed', 'Credentials missing or of wrong syntax:', 'Malformed'], ['credentials', 'client credentials', 'authorization header']),
  wrongClientDescription: wording(['Wrong', 'Invalid', 'Unknown', 'Incorrect'], ['client ID or secret', 'clientId or clientSecret', 'client credentials']),
  invalidTokenFaultstring: faultstrings,
  soapEnvPrefix: fc.constantFrom('soap-env', 'SOAP-ENV', 'S', 'soapenv', 'soap', 'env'),
  ebPrefix: fc.constantFrom('eb', 'ns2', 'mh', 'ns1', 'eb3'),
  latencyMs: fc.integer({ min: 0, max: 4 }),
};

/** Every conforming profile: what the latitude property draws from (the covering values, and wider ones). */
export function conformingProfile(): fc.Arbitrary<LatitudeProfile> {
  const record = Object.fromEntries(KEYS.map((k) => {
    const listed = fc.constantFrom(...(PROFILE_CHOICES[k] as readonly unknown[]));
    const wider = WIDER[k] as fc.Arbitrary<unknown> | undefined;
    return [k, wider ? fc.oneof(listed, wider) : listed];
  }));
  return fc.record(record) as unknown as fc.Arbitrary<LatitudeProfile>;
}

