import { failOn, registerSecret } from '../../../harness/checks/index.ts';
import { isJsonContentType, rest03Problems, rest05Problems } from '../../../harness/judges/index.ts';
import type { HttpResponse } from '../../../harness/targets/index.ts';

export { isJsonContentType };

/** REST-03 for one successful answer (harness/judges: the same judge as observe's): its first problem fails the check. */
export function expectTokenResponse(res: HttpResponse, what = 'the token response'): void {
  const problems = rest03Problems(res, what);
  if (!problems.some((p) => p.clause === 'REST-03.access-token')) {
    try {
      registerSecret((JSON.parse(res.body) as { access_token?: string }).access_token);
    } catch {
      // not JSON: REST-03.json-object says so
    }
  }
  failOn(problems[0]);
}

/** REST-05 (SHOULD) for one successful answer: status 200 and a JSON content type. */
export function expectTokenResponseShape(res: HttpResponse, what = 'the token response'): void {
  failOn(rest05Problems(res, what)[0]);
}
