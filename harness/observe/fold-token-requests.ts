/**
 * The rules judged on each token request, as the traffic comes (client-rules.ts and service-rules.ts read the same
 * from the whole traffic): CRED-01, CRED-02, CRED-04, REST-01, ERR-06, and the service's REST-03, REST-05, ERR-03.
 * Each keeps its first failure and counts: nothing grows with the traffic.
 */
import { throttleOf } from '../targets/throttle.ts';
import {
  cred01Problems, cred04Problem, err03Problems, err06LoopProblem, isInvalidClient, plural, readCred02, rest01Problems, rest03Problems, rest05Problems, type Problem,
} from '../judges/index.ts';
import type { RuleId } from '../catalog/index.ts';
import { ACCOUNT_HINT, withOtherEnvironment } from './client-rules.ts';
import type { ObservedExchange } from './exchange.ts';
import { clientIdAccount, clientKey, type TokenRequest } from './exchange-facts.ts';
import { held, notSeen, skippedAfter, type ClauseVerdict } from './verdict.ts';

type Fail = (p: Problem, xs?: ObservedExchange | readonly ObservedExchange[]) => ClauseVerdict;

const REST01 = ['REST-01.method-path', 'REST-01.content-type', 'REST-01.grant-type'] as const;
const REST0305 = ['REST-03.json-object', 'REST-03.access-token', 'REST-03.token-type', 'REST-03.expires-in', 'REST-05.status-200', 'REST-05.json-content-type'] as const;
const NONE = 'no token request seen: start the application with no token held and let it make a REST call';

export class TokenRequestFold {
  readonly #fail: Fail;
  readonly #first = new Map<string, ClauseVerdict>();
  /** Token requests; with Basic credentials read past the scheme; with a Client ID read; of a known account; of one declaring no REST domain. */
  #requests = 0;
  #layered = 0;
  #decoded = 0;
  #known = 0;
  #undeclared = 0;
  #issued = 0;
  #invalidClient = 0;
  // ERR-06: the current run of invalid_client answers to one client, and the longest.
  #runKey: string | undefined;
  #run = 0;
  #worst = 0;
  // REST-03, REST-05, ERR-03
  #ok = 0;
  #errors = 0;
  #errorsInvalidClient = 0;
  readonly #service = new Map<string, ClauseVerdict>();

  constructor(fail: Fail) {
    this.#fail = fail;
  }

  #firstOf(p: Problem, x: ObservedExchange, into = this.#first): void {
    if (!into.has(p.clause)) into.set(p.clause, this.#fail(p, x));
  }

  /** Whether any token request was answered with a token. */
  get anyIssued(): boolean {
    return this.#issued > 0;
  }

  add(r: TokenRequest): void {
    this.#requests++;
    if (r.answer === 'issued') this.#issued++;
    // CRED-02, CRED-01, CRED-04: the judges of the client suite (harness/judges), on every token request.
    const reading = withOtherEnvironment(readCred02(r.authorization), r);
    if (!reading.ok) this.#firstOf(reading.problem, r.x);
    if (reading.ok || reading.problem.clause !== 'CRED-02.basic-scheme') this.#layered++;
    if (reading.clientId !== undefined) {
      this.#decoded++;
      const a = clientIdAccount(r);
      for (const p of cred01Problems(reading.clientId, a && { epr: a.epr, pcc: a.pcc, restDomain: a.restDomainDeclared ? a.restDomain : undefined, groupAlternatives: a.groupAlternatives })) this.#firstOf(p, r.x);
      if (a) {
        this.#known++;
        if (!a.restDomainDeclared) {
          this.#undeclared++;
          const p = cred04Problem(reading.clientId);
          if (p) this.#firstOf(p, r.x);
        }
      }
    }
    for (const p of rest01Problems(r.x.request)) this.#firstOf(p, r.x);
    // ERR-06: consecutive invalid_client answers to the same credentials, with no success in between.
    const key = clientKey(r);
    if (r.answer === 'invalid_client') {
      this.#invalidClient++;
      this.#run = key === this.#runKey ? this.#run + 1 : 1;
      this.#runKey = key;
      this.#worst = Math.max(this.#worst, this.#run);
    } else if (key === this.#runKey) {
      this.#run = 0;
    }
    // The service's answer.
    // An answer whose body the recording did not keep is not judged (a HAR without content.text).
    const res = r.x.response?.bodyMissing ? undefined : r.x.response;
    if (res && res.status >= 200 && res.status < 300) {
      this.#ok++;
      for (const p of [...rest03Problems(res, 'the token answer'), ...rest05Problems(res, 'the token answer')]) this.#firstOf(p, r.x, this.#service);
    }
    // A throttle (429, 503) is no answer to the request: never judged as a token error.
    if (res && res.status >= 400 && res.status < 500 && throttleOf(r.x.request, res) === undefined) {
      this.#errors++;
      for (const p of err03Problems(res, r.decoded.ok ? [r.decoded.password] : [], 'a token error')) this.#firstOf(p, r.x, this.#service);
      if (isInvalidClient(res)) this.#errorsInvalidClient++;
    }
  }

  /** CRED-02's, CRED-01's and CRED-04's clauses, in the order of client-rules.ts. */
  cred(accountsKnown: boolean): ClauseVerdict[] {
    if (this.#requests === 0) {
      return ['CRED-02.basic-scheme', 'CRED-02.outer-layer', 'CRED-02.inner-layer', 'CRED-01.v1-literal', 'CRED-01.fields', 'CRED-04.default-domain'].map((c) => notSeen(c, NONE));
    }
    const f = (c: string) => this.#first.get(c);
    const out: ClauseVerdict[] = [f('CRED-02.basic-scheme') ?? held('CRED-02.basic-scheme', `${plural(this.#requests, 'token request')}, each with Basic credentials`)];
    const layersSeen = `${plural(this.#layered, 'Basic credential')} decoded`;
    if (this.#layered === 0) {
      out.push(notSeen('CRED-02.outer-layer', 'no token request carried Basic credentials (see CRED-02.basic-scheme)'), notSeen('CRED-02.inner-layer', 'no token request carried Basic credentials (see CRED-02.basic-scheme)'));
    } else {
      const outer = f('CRED-02.outer-layer');
      out.push(
        outer ?? held('CRED-02.outer-layer', layersSeen),
        f('CRED-02.inner-layer') ?? (outer ? notSeen('CRED-02.inner-layer', 'the outer layer is not base64 (see CRED-02.outer-layer)') : held('CRED-02.inner-layer', layersSeen)),
      );
    }
    if (this.#decoded === 0) {
      const cred02Failed = out.some((v) => v.status === 'fail');
      out.push(...['CRED-01.v1-literal', 'CRED-01.fields', 'CRED-04.default-domain'].map((c) => (cred02Failed
        ? skippedAfter(c, 'the Client ID cannot be read back from the credentials', ['CRED-02'])
        : notSeen(c, 'the credentials cannot be decoded (see CRED-02)'))));
      return out;
    }
    out.push(f('CRED-01.v1-literal') ?? held('CRED-01.v1-literal', `${plural(this.#decoded, 'Client ID')} starting with V1`));
    if (this.#known === 0) {
      const why = accountsKnown ? 'the credentials carry the password of no account the harness knows' : `the expected EPR, PCC and domain are not known: ${ACCOUNT_HINT}`;
      out.push(notSeen('CRED-01.fields', why), notSeen('CRED-04.default-domain', why));
      return out;
    }
    out.push(f('CRED-01.fields') ?? held('CRED-01.fields', `${plural(this.#known, 'Client ID')} of a known account`));
    if (this.#undeclared === 0) {
      out.push(notSeen('CRED-04.default-domain', 'every account the credentials name declares its REST domain, so the default is not exercised: declare the account without "restDomain" when the application is configured without one'));
    } else {
      out.push(f('CRED-04.default-domain') ?? held('CRED-04.default-domain', `${plural(this.#undeclared, 'Client ID')} with the default domain AA`));
    }
    return out;
  }

  rest01(): ClauseVerdict[] {
    if (this.#requests === 0) return REST01.map((c) => notSeen(c, NONE));
    return REST01.map((c) => this.#first.get(c) ?? held(c, plural(this.#requests, 'token request')));
  }

  err06(): ClauseVerdict[] {
    const keeps = notSeen('ERR-06.keeps-error', 'what the client reports to its caller is not in its traffic: the driver-based client suite (`run --suite client`) checks it');
    if (this.#invalidClient === 0) return [keeps, notSeen('ERR-06.no-retry-loop', 'no invalid_client seen: run the application once with a wrong password')];
    if (!err06LoopProblem(this.#worst)) return [keeps, held('ERR-06.no-retry-loop', `${plural(this.#invalidClient, 'invalid_client answer')}, at most one retry each`)];
    return [keeps, notSeen('ERR-06.no-retry-loop', `${this.#worst} invalid_client answers in a row to the same credentials: traffic cannot tell a retry loop from an application that asked ${this.#worst} times; the driver-based client suite (\`run --suite client\`) checks it, or run a workload of a single call with a wrong password`)];
  }

  rest03and05(): ClauseVerdict[] {
    if (this.#ok === 0) return REST0305.map((c) => notSeen(c, 'no successful token answer seen'));
    return REST0305.map((c) => this.#service.get(c) ?? held(c, plural(this.#ok, 'successful token answer')));
  }

  err03(): ClauseVerdict[] {
    const clauses = ['ERR-03.status-401', 'ERR-03.json-body', 'ERR-03.no-secret'];
    if (this.#errors === 0) return clauses.map((c) => notSeen(c, 'no token error seen (a wrong password shows one)'));
    const seen = plural(this.#errors, 'token error');
    const s = this.#service;
    return [
      s.get('ERR-03.status-401') ?? (this.#errorsInvalidClient === 0 ? notSeen('ERR-03.status-401', 'no invalid_client answer seen') : held('ERR-03.status-401', plural(this.#errorsInvalidClient, 'invalid_client answer'))),
      s.get('ERR-03.json-body') ?? held('ERR-03.json-body', seen),
      s.get('ERR-03.no-secret') ?? held('ERR-03.no-secret', seen),
    ];
  }

  /**
   * client-rules.ts `prerequisites`: when the client asked for REST tokens and never got one, the clauses that need a
   * token are `skipped`, naming the credential rule that failed first.
   */
  prerequisites(verdicts: readonly ClauseVerdict[], needsRestToken: readonly string[]): ClauseVerdict[] {
    if (this.#requests === 0 || this.#issued > 0) return [...verdicts];
    const failedFirst = (['CRED-02', 'CRED-01', 'CRED-04', 'REST-01'] as const).find((id) => verdicts.some((v) => v.status === 'fail' && v.clause.startsWith(`${id}.`)));
    const refused = this.#invalidClient === this.#requests;
    const reason = failedFirst
      ? 'no token was issued: every token request was refused'
      : `no token was issued: ${refused ? 'every token request was refused (invalid_client): check the account the application uses' : 'no token request was answered with a token'}`;
    const after: RuleId[] = failedFirst ? [failedFirst] : [];
    return verdicts.map((v) => (v.status === 'not-applicable' && needsRestToken.some((id) => v.clause.startsWith(`${id}.`))
      ? (after.length > 0 ? skippedAfter(v.clause, reason, after) : notSeen(v.clause, reason))
      : v));
  }
}
