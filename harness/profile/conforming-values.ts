/**
 * Which values of a profile are a conforming service's style and which break a rule: the judges' own tests (ERR-01,
 * ERR-02: statesErrorCase; ERR-04: err04Problem's; REST-05's media type), so that learning, serving and judging agree.
 * `learn` keeps a breaking value out of the profile's values (it is a deviation); `serve --profile` refuses a profile
 * file that holds one there (a hand-edited one: the conforming stand-in must conform).
 */
import { statesErrorCase } from '../catalog/errors.ts';
import { namesInvalidSecurityToken, saysInvalidOrExpired } from '../judges/soap-answers.ts';
import { REDACTED } from '../report/redact.ts';
import type { LatitudeProfile } from '../sim/latitude.ts';

export interface ConformingTest {
  readonly key: keyof LatitudeProfile;
  readonly rule: string;
  readonly ok: (value: never) => boolean;
}

export const CONFORMING_TESTS: readonly ConformingTest[] = [
  // A description that echoed the secret (redacted in a profile) breaks ERR-03: it is a deviation, not the wording.
  { key: 'syntaxDescription', rule: 'ERR-03', ok: (v: string) => !v.includes(REDACTED) },
  { key: 'wrongClientDescription', rule: 'ERR-03', ok: (v: string) => !v.includes(REDACTED) },
  { key: 'syntaxDescription', rule: 'ERR-01', ok: (v: string) => statesErrorCase(v, 'missing-or-syntax') },
  { key: 'wrongClientDescription', rule: 'ERR-02', ok: (v: string) => statesErrorCase(v, 'wrong-client') },
  { key: 'invalidTokenFaultstring', rule: 'ERR-04', ok: (v: string) => v.includes('%s') && saysInvalidOrExpired(v.split('%s').join('')) },
  { key: 'invalidTokenStackTrace', rule: 'ERR-04', ok: (v: string) => namesInvalidSecurityToken(v) },
  { key: 'jsonContentType', rule: 'REST-05', ok: (v: string) => /^application\/([\w.-]+\+)?json\b/i.test(v) },
  // Statuses the document's latitudes allow (fault-status: 500 or 200; an API's refusal of a token: a 4xx).
  { key: 'faultStatus', rule: 'ERR-05', ok: (v: number) => v === 500 || v === 200 },
  { key: 'apiRefusalStatus', rule: 'API-02', ok: (v: number) => v >= 400 && v < 500 && v !== 429 },
  { key: 'otherTokenErrorStatus', rule: 'ERR-03', ok: (v: number) => v >= 400 && v < 500 && v !== 429 },
];
