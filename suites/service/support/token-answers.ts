import { CheckFailure, expectEqual, expectThat, registerSecret } from '../../../harness/checks/index.ts';
import { isRecord, jsonBody } from '../../../harness/checks/rest.ts';
import { limits, TOKEN_TYPE } from '../../../harness/spec/index.ts';
import type { HttpResponse } from '../../../harness/targets/index.ts';

/** `application/json` or a `+json` type, with any parameters (`; charset=utf-8`). RFC 6749 §5.1 names application/json. */
export function isJsonContentType(value: string): boolean {
  const type = value.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/** The JSON object of a token response, or a failure saying what came instead. */
export function tokenObject(res: HttpResponse): Record<string, unknown> {
  const body = jsonBody(res);
  if (!isRecord(body)) throw new CheckFailure('the token response is not a JSON object', { expected: 'a JSON object', actual: res.body.slice(0, 200) });
  return body;
}

/** REST-03 for one successful answer: access_token a non-empty string, token_type `bearer`, expires_in the integer 604800. */
export function expectTokenResponse(res: HttpResponse, what = 'the token response'): void {
  const body = tokenObject(res);
  expectThat(typeof body.access_token === 'string' && body.access_token.length > 0, `unexpected "access_token" value in ${what}`, {
    expected: 'a non-empty string',
    actual: body.access_token,
  });
  registerSecret(body.access_token as string);
  expectEqual(`"token_type" value in ${what}`, body.token_type, TOKEN_TYPE);
  expectThat(typeof body.expires_in === 'number', `unexpected "expires_in" type in ${what}`, { expected: 'a JSON number', actual: body.expires_in });
  expectEqual(`"expires_in" value in ${what}`, body.expires_in, limits.accessTokenLifetimeSeconds);
}
