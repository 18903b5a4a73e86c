import type fc from 'fast-check';
import { it } from 'vitest';
import { classifyRest, classifySoap, describeRestAnswer, describeSoapAnswer } from '../classify/index.ts';
import { ClientError, type ClientAdapter, type DriverCredentials, type DriverEnvironment, type DriverErrorKind } from '../clients/protocol.ts';
import { DriverFailure, DriverProcess } from '../clients/driver-process.ts';
import { REFERENCE_CLIENT, startClient } from '../clients/load.ts';
import type { SimEvent } from '../sim/index.ts';
import { parseEnvelope } from '../soap/index.ts';
import { TOKEN_PATH, type Environment, type RuleId } from '../catalog/index.ts';
import { createSimTarget, type Account, type SimControl } from '../targets/index.ts';
import { CheckFailure } from './failure.ts';
import { PrerequisiteFailed } from './errors.ts';
import { checkClauses, checkProperty, runCheck, titleFor, type CheckContext, type CheckOptions, type CheckRunOptions } from './rule-test.ts';
import { redact, registerPassword } from './secrets.ts';
import { runConfig } from './target.ts';
import { addConsultedFaults } from './consulted-faults.ts';

/** What a client check gets: the client under test, and the simulator it talks to. */
export interface ClientContext extends CheckContext {
  readonly client: ClientAdapter;
  readonly sim: SimControl;
  /**
   * Configures the client with the simulator's environments and accounts (the main ones unless given). `omitDomains`
   * leaves the domains out, so the client must use its defaults.
   */
  configure(options?: {
    accounts?: Partial<Record<Environment, Account>>;
    omitDomains?: boolean;
    sessionPoolSize?: number;
    environments?: readonly Environment[];
    /**
     * The client waits its back-offs for real (no `clock: "virtual"` in `configure`): for the one check that judges
     * how long a client pauses (SESS-08.no-retry-storm), on the simulator's clock, which runs with real time.
     */
    realClock?: boolean;
  }): Promise<void>;
  /** The simulator's events since the check started (or since `mark()`). */
  events(): Promise<readonly SimEvent[]>;
  /** Every event of the check, whatever the window. */
  history(): Promise<readonly SimEvent[]>;
  /** Starts a new window of events (for properties: one window per case). */
  mark(): Promise<void>;
  /**
   * How the driver process broke during the check (it exited unasked, did not answer in time, or answered out of the
   * protocol), whatever the check made of the op that met it: an `error` of the driver, never a verdict on the client.
   * `undefined` for an in-process client, or a driver that did not break.
   */
  driverFailure(): DriverFailure | undefined;
}

/**
 * The client refused a configuration the interface document allows (its own validation rejected the account, say).
 * The credential checks judge it (a `fail` of CRED-01/CRED-02 with the account's shape as evidence); every other
 * check is `skipped` naming them, since it cannot examine a client that holds no configuration.
 */
export class ConfigurationRefused extends PrerequisiteFailed {
  override readonly name = 'ConfigurationRefused';
  /** The client's error answer, as it reported it (code, description, status: a client that logs in as it is configured). */
  readonly error: ClientError | undefined;
  constructor(readonly kind: DriverErrorKind, readonly clientMessage: string, error?: ClientError) {
    super(`the client refused its configuration (error kind "${kind}"): ${clientMessage}`, ['CRED-02', 'CRED-01']);
    this.error = error;
  }
}

/** What a check needs from the client's exchanges with the service before it can judge its rule. */
export type ClientNeed = 'token';

/** Options of a client check: what it needs (see {@link explainFailure}). */
export interface ClientCheckOptions extends CheckOptions {
  /**
   * `token`: the check judges what the client does with a token and the calls it makes with it. When the service
   * refused every token request of the client, or every API call for its Authorization header, or an op of the check
   * failed on a SOAP call the service refused for what another rule judges (see {@link callRefusal}), the check
   * cannot judge its rule: it is `skipped` naming the rule that judges the refused request.
   */
  readonly needs?: ClientNeed;
}

const isTokenRequest = (e: SimEvent) => e.protocol === 'rest' && e.path.replace(/\/+$/, '') === TOKEN_PATH;
/** A REST request for a token, wherever it was sent: at the token path, or carrying Basic credentials or a grant type. */
export const isTokenAttempt = (e: SimEvent): boolean => e.protocol === 'rest'
  && (isTokenRequest(e) || /^basic\b/i.test(e.headers.authorization ?? '') || /grant_type/.test(e.body ?? ''));
const TOKEN_CREATING = new Set(['TokenCreateRQ', 'SessionCreateRQ']);

function restRefusal(e: SimEvent): string {
  let body: { error?: unknown; error_description?: unknown } = {};
  try {
    body = JSON.parse(e.answer ?? '{}') as typeof body;
  } catch {
    // not JSON: the status says enough
  }
  const error = typeof body.error === 'string' ? `, error "${body.error}"` : '';
  const description = typeof body.error_description === 'string' ? `: "${body.error_description}"` : '';
  return `${describeRestAnswer(classifyRest(e.status))}${error}${description}`;
}

/**
 * When the service refused every request of the client for a token (and issued none), the rules that judge those
 * requests and why: `undefined` when a token was issued, or no token request was refused. A refusal is what
 * harness/classify calls one (a REST 4xx of the token endpoint; a SOAP fault classified `refused`).
 */
export function tokenRefusal(events: readonly SimEvent[]): { readonly after: readonly RuleId[]; readonly reason: string } | undefined {
  if (events.some((e) => e.tokenIssued !== undefined)) return undefined;
  const rest = events.filter((e) => isTokenRequest(e) && e.outcome.startsWith('token-refused'));
  const last = rest.at(-1);
  if (last) {
    const after: RuleId[] = last.outcome === 'token-refused-request' ? ['REST-01'] : last.outcome === 'token-refused-syntax' ? ['CRED-02', 'CRED-01'] : ['CRED-01', 'CRED-02'];
    return { after, reason: `the service refused the client's ${rest.length} token request(s) (${restRefusal(last)}), so the client held no token to check this rule with (see ${after.join(', ')})` };
  }
  // A token request the token endpoint did not answer as one (sent to another path, with a trailing slash, with
  // another method: REST-01 judges where it goes): no token could come back. A request with no answer at all is not
  // the client's doing, so it does not count.
  const misdirected = events.find((e) => isTokenAttempt(e) && !e.outcome.startsWith('token-') && e.outcome !== 'no-answer');
  if (misdirected) {
    return { after: ['REST-01'], reason: `the client sent its token request as ${misdirected.method} ${misdirected.path}, which the token endpoint did not answer (HTTP ${misdirected.status}, ${misdirected.outcome}), so it held no token to check this rule with (see REST-01)` };
  }
  const soap = events.filter((e) => e.protocol === 'soap' && TOKEN_CREATING.has(e.action ?? '') && e.answer !== undefined).flatMap((e) => {
    const parsed = parseEnvelope(e.answer ?? '');
    const answer = classifySoap({ status: e.status, envelope: parsed.ok ? parsed.envelope : undefined });
    return answer.kind === 'refused' ? [{ e, answer }] : [];
  });
  const refused = soap.at(-1);
  if (refused) {
    return { after: ['SOAP-03'], reason: `the service refused the client's ${refused.e.action} (${describeSoapAnswer(refused.answer)}), so the client held no token to check this rule with (see SOAP-03)` };
  }
  return undefined;
}

const WELL_FORMED_BEARER = /^Bearer [^\s]+$/;

/** Every token the service issued in `events` (token responses, TokenCreateRS, SessionCreateRS). */
export function issuedTokens(events: readonly SimEvent[]): Set<string> {
  return new Set(events.flatMap((e) => (e.tokenIssued === undefined ? [] : [e.tokenIssued])));
}

/**
 * When the client held a token but the service accepted none of its API calls, refusing them for an Authorization
 * header that is not `Bearer <token>`, or for a bearer token the service never issued (`history`: the events that show
 * every token issued; API-03 judges both): the rule and why. `undefined` when an API call was accepted, or none was
 * refused for its header.
 */
export function bearerRefusal(events: readonly SimEvent[], history: readonly SimEvent[] = events): { readonly after: readonly RuleId[]; readonly reason: string } | undefined {
  const calls = events.filter((e) => e.protocol === 'rest' && e.outcome.startsWith('api-'));
  if (calls.some((e) => e.outcome === 'api-ok')) return undefined;
  // "Method: Upper case": a call sent as `get` is not an API call the service serves (it answers 405), so nothing the
  // client does with its token shows; that is API-03's to judge.
  const lowerCase = events.filter((e) => e.protocol === 'rest' && !isTokenRequest(e) && e.method !== e.method.toUpperCase());
  if (lowerCase.length > 0) {
    return {
      after: ['API-03'],
      reason: `the service served none of the client's ${lowerCase.length} API call(s) sent with a method not in upper case and accepted no call, so the client's use of its token could not be seen (see API-03)`,
    };
  }
  const refused = calls.filter((e) => e.outcome === 'api-refused-token');
  const malformed = refused.filter((e) => !WELL_FORMED_BEARER.test(e.headers.authorization ?? ''));
  if (malformed.length > 0) {
    return {
      after: ['API-03'],
      reason: `the service refused the client's ${malformed.length} API call(s) whose Authorization header is not "Bearer <token>" and accepted none, so the client's use of its token could not be seen (see API-03)`,
    };
  }
  // A well-formed header carrying a token the service never issued (the client altered it): API-03's "the token as
  // issued". The refusals that follow say nothing of how the client reuses or renews the tokens it was given.
  const issued = issuedTokens(history);
  const unissued = refused.filter((e) => e.tokenUsed !== undefined && !issued.has(e.tokenUsed));
  if (unissued.length === 0) return undefined;
  return {
    after: ['API-03'],
    reason: `the service refused the client's ${unissued.length} API call(s) whose bearer token is not one it issued and accepted none, so the client's use of its token could not be seen (see API-03)`,
  };
}

function soapAnswer(e: SimEvent) {
  const parsed = parseEnvelope(e.answer ?? '');
  return classifySoap({ status: e.status, envelope: parsed.ok ? parsed.envelope : undefined });
}

/** Session tokens the service issued that no accepted `SessionCloseRQ` ended. */
export function sessionsLeftOpen(history: readonly SimEvent[]): string[] {
  const closed = new Set(history.filter((e) => e.protocol === 'soap' && e.action === 'SessionCloseRQ' && e.outcome === 'soap-ok').map((e) => e.tokenUsed));
  return history.filter((e) => e.tokenKind === 'session' && e.tokenIssued !== undefined && !closed.has(e.tokenIssued)).map((e) => e.tokenIssued as string);
}

/**
 * When the service refused a SOAP call of the client for what another rule judges, so that an op the check asked
 * for failed: the rule and why. The first such refusal in `events` counts:
 * - an action the service does not know (the simulator offers every action the checks ask for, so the client sent
 *   another one in eb:Action: SOAP-04);
 * - a later call refused as carrying no valid token, that carried no token the service issued in
 *   wsse:BinarySecurityToken (SOAP-04);
 * - a `SessionCreateRQ` refused because the pool was full while sessions the client opened before (in `history`, the
 *   check's whole event log) were never closed (SESS-06);
 * - a `TokenCreateRQ` or `SessionCreateRQ` refused for its credentials, the last SOAP request of the op (SOAP-03).
 *   `tokenRefusal` covers a client that got no token at all; this, one that got a REST token but no SOAP one.
 */
export function callRefusal(events: readonly SimEvent[], history: readonly SimEvent[] = events): { readonly after: readonly RuleId[]; readonly reason: string } | undefined {
  const issued = issuedTokens(history);
  const lastSoap = events.filter((x) => x.protocol === 'soap').at(-1);
  for (const e of events) {
    if (e.protocol !== 'soap' || e.outcome !== 'soap-fault' || e.answer === undefined) continue;
    const answer = soapAnswer(e);
    const action = e.action ?? '(no eb:Action)';
    if (TOKEN_CREATING.has(e.action ?? '')) {
      const open = answer.kind === 'pool-full' ? sessionsLeftOpen(history.filter((h) => h.seq < e.seq)) : [];
      if (open.length > 0) {
        return { after: ['SESS-06'], reason: `the service refused the client's ${action} for a full session pool (${describeSoapAnswer(answer)}) while ${open.length} session(s) the client opened before were never closed, so the check's work could not run (see SESS-06)` };
      }
      // The op failed on its token request, refused for the credentials (the client may hold a REST token all the
      // same, so tokenRefusal does not apply): SOAP-03 judges what the request carried.
      if (answer.kind === 'refused' && e === lastSoap) {
        return { after: ['SOAP-03'], reason: `the service refused the client's ${action} (${describeSoapAnswer(answer)}), so the SOAP call the check asked for could not go through (see SOAP-03)` };
      }
      continue;
    }
    if (answer.kind === 'unknown-action') {
      return { after: ['SOAP-04'], reason: `the service did not know the eb:Action "${action}" the client sent for a call the check asked for (${describeSoapAnswer(answer)}), so the call could not go through (see SOAP-04)` };
    }
    if (answer.kind === 'refused' && answer.why === 'invalid-token') {
      const parsed = parseEnvelope(e.body);
      const security = parsed.ok ? parsed.envelope.security : undefined;
      if (security?.kind !== 'binarySecurityToken' || !issued.has(security.token)) {
        return { after: ['SOAP-04'], reason: `the service refused the client's ${action} (${describeSoapAnswer(answer)}), which carried no token the service issued in wsse:BinarySecurityToken (${security?.kind ?? 'no envelope'}), so the call could not go through (see SOAP-04)` };
      }
    }
  }
  return undefined;
}

/**
 * What a check's failure means, given what the client exchanged with the service: a check that needs a token whose
 * client got none because its token requests were refused, or whose API calls were all refused for a malformed
 * Authorization header, or one of whose ops failed on a refused SOAP call ({@link callRefusal}; `history` is the
 * check's whole event log), is `skipped` naming the rule that judges them (unless that rule is one the check judges
 * itself, `own`: then it is its own failure); an error the client reported for an op becomes a `fail` of the check's rule
 * that says so (kind, code, description), not an unexplained exception.
 */
export function explainFailure(err: unknown, events: readonly SimEvent[], needs: ClientNeed | undefined, own: readonly RuleId[] = [], history: readonly SimEvent[] = events): unknown {
  if (err instanceof PrerequisiteFailed || err instanceof DriverFailure) return err;
  if (needs === 'token') {
    // Only an op that failed is explained by a refused call; a check's own finding stands.
    const refusals = [tokenRefusal(events), bearerRefusal(events, history), err instanceof ClientError ? callRefusal(events, history) : undefined];
    for (const refusal of refusals) {
      if (refusal && !refusal.after.some((id) => own.includes(id))) return new PrerequisiteFailed(refusal.reason, refusal.after);
    }
  }
  if (err instanceof ClientError && err.kind !== 'unsupported') {
    return new CheckFailure(`the client failed an operation the check asked for (error kind "${err.kind}"): ${err.message}`, {
      code: 'CLIENT_OPERATION_FAILED',
      actual: err.toJSON(),
    });
  }
  return err;
}

/** Calls a client op; a client that does not support it makes the check `skipped`, not failed. */
export async function op<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof ClientError && err.kind === 'unsupported') throw new PrerequisiteFailed(`the client does not support ${what}${err.message ? `: ${err.message}` : ''}`);
    throw err;
  }
}

function formatEvent(e: SimEvent): string {
  const auth = e.headers.authorization ? ` [authorization: ${e.headers.authorization.split(/\s/)[0]} …]` : '';
  return `#${e.seq} ${e.env} ${e.method} ${e.path} → ${e.status} ${e.outcome}${e.action ? ` ${e.action}` : ''}${auth}`;
}

/** Starts a simulator and the client under test, runs `runBody`, and always shuts the client down and stops the simulator. */
async function withClient(runBody: (make: (base: CheckContext) => ClientContext, options: CheckRunOptions) => Promise<void>): Promise<void> {
  const run = runConfig();
  const target = await createSimTarget({ seed: run.seed, requestTimeoutMs: run.requestTimeoutMs, clock: 'drifting' });
  const sim = target.control!;
  for (const a of [...Object.values(target.accounts), ...Object.values(sim.extraAccounts)]) registerPassword(a?.password);
  let client: (ClientAdapter & { kill?: () => void }) | undefined;
  let since = 0;
  let shutDown = false;
  try {
    let started: ClientAdapter & { kill?: () => void };
    try {
      started = await startClient(run.client ?? REFERENCE_CLIENT, { redact, ...(run.clientTimeoutMs !== undefined && { opTimeoutMs: run.clientTimeoutMs }) });
    } catch (err) {
      if (!(err instanceof DriverFailure)) throw err;
      // A client that cannot be started (a module that throws on import, a driver that is not there) is the check's
      // error, not a broken rule: the check runs, and its context throws the failure where the check's outcome is read.
      await runBody(() => { throw err; }, { target, evidence: async () => [] });
      return;
    }
    client = started;
    const clientCtx = (base: CheckContext): ClientContext => ({
      ...base,
      client: {
        ...started,
        configure: (r) => started.configure(r),
        restCall: (r) => started.restCall(r),
        soapCall: (r) => started.soapCall(r),
        openSession: (r) => started.openSession(r),
        sessionCall: (r) => started.sessionCall(r),
        closeSession: (r) => started.closeSession(r),
        shutdown: async () => {
          shutDown = true;
          await started.shutdown();
        },
      },
      sim,
      driverFailure: () => (started instanceof DriverProcess ? started.failure : undefined),
      async configure(options = {}) {
        const envs = options.environments ?? (['cert', 'prod'] as const);
        const environments: Partial<Record<Environment, DriverEnvironment>> = {};
        for (const env of envs) {
          const account = options.accounts?.[env] ?? target.accounts[env];
          const urls = target.environments[env];
          if (!account || !urls) continue;
          registerPassword(account.password);
          const credentials: DriverCredentials = options.omitDomains
            ? { epr: account.epr, pcc: account.pcc, password: account.password }
            : { epr: account.epr, pcc: account.pcc, password: account.password, restDomain: account.restDomain, soapDomain: account.soapDomain };
          environments[env] = { restBaseUrl: urls.restBaseUrl, soapUrl: urls.soapUrl, credentials };
        }
        try {
          // The service is the simulator: the client may skip its back-offs' waits (nothing is timed but where a check
          // asks for real waits).
          await started.configure({ environments, sessionPoolSize: options.sessionPoolSize ?? target.sessionPoolSize ?? 4, ...(!options.realClock && { clock: 'virtual' as const }) });
        } catch (err) {
          // `configure` is every driver's first op: answering it `unsupported` is a broken driver (an error). Any other
          // error answer is the client refusing a valid configuration: judged by the credential checks.
          if (err instanceof ClientError && err.kind === 'unsupported') throw new DriverFailure('DRIVER_PROTOCOL', `the client refused "configure" (error kind "${err.kind}"): ${err.message}`);
          if (err instanceof ClientError) throw new ConfigurationRefused(err.kind, err.message, err);
          throw err;
        }
      },
      async events() {
        return (await sim.events(since)).filter((e) => !e.path.startsWith('/__sim'));
      },
      async history() {
        return (await sim.events(0)).filter((e) => !e.path.startsWith('/__sim'));
      },
      async mark() {
        since = await sim.lastEventSeq();
      },
    });
    await runBody(clientCtx, {
      target,
      evidence: async () => {
        const events = await sim.events(since);
        const lines = events.length ? [`simulator events (last ${Math.min(events.length, 12)} of ${events.length}):\n${events.slice(-12).map(formatEvent).join('\n')}`] : [];
        const diagnostics = started instanceof DriverProcess ? started.diagnostics() : undefined;
        if (diagnostics && diagnostics.total > 0) {
          lines.push(`driver stdout lines that are not answers (diagnostics, last ${diagnostics.lines.length} of ${diagnostics.total}):\n${diagnostics.lines.map((l) => redact(l)).join('\n')}`);
        }
        return lines;
      },
    });
  } finally {
    if (client && !shutDown) await client.shutdown().catch(() => undefined);
    client?.kill?.();
    addConsultedFaults(client);
    await target.close();
  }
}

/**
 * A check of the client under test: a fresh simulator (its clock moving on its own) and a fresh client for this
 * check; the client rules are judged on the simulator's event log.
 */
export function clientTest(ids: RuleId | readonly RuleId[], title: string, body: (ctx: ClientContext) => Promise<void>, options: ClientCheckOptions): void {
  const list = typeof ids === 'string' ? [ids] : ids;
  const fullTitle = titleFor(list, title);
  checkClauses(list, fullTitle, options.clauses);
  it(fullTitle, async (test) => {
    await withClient((make, runOptions) => runCheck(test, list, async (base) => {
      const ctx = make(base);
      try {
        await body(ctx);
      } catch (err) {
        throw ctx.driverFailure() ?? explainFailure(err, await ctx.events(), options.needs, list, await ctx.history());
      }
      const broke = ctx.driverFailure();
      if (broke) throw broke;
    }, { ...runOptions, clauses: options.clauses }));
  }, options.timeout ?? 120_000);
}

/**
 * A property over the client under test: one simulator and one client for the whole property, a window of events per
 * case. `examples` run first, whatever the seed: cases that decide the verdict of a deterministic client (an account
 * with the characters that trip encoders, say), so that the same client gets the same verdict with every seed.
 */
export function clientProperty<T>(
  ids: RuleId | readonly RuleId[],
  title: string,
  arbitrary: fc.Arbitrary<T>,
  predicate: (ctx: ClientContext, value: T) => Promise<void>,
  options: ClientCheckOptions & { numRuns?: number; examples?: readonly T[] },
): void {
  const list = typeof ids === 'string' ? [ids] : ids;
  const fullTitle = titleFor(list, title);
  checkClauses(list, fullTitle, options.clauses);
  it(fullTitle, async (test) => {
    await withClient((make, runOptions) =>
      checkProperty<T, ClientContext>(fullTitle, arbitrary, async (ctx, value) => {
        await ctx.mark();
        try {
          await predicate(ctx, value);
        } catch (err) {
          throw ctx.driverFailure() ?? explainFailure(err, await ctx.events(), options.needs, list, await ctx.history());
        }
        const broke = ctx.driverFailure();
        if (broke) throw broke;
      }, options.numRuns, (body, extra) => runCheck(test, list, (base) => body(make(base)), { ...runOptions, ...extra, clauses: options.clauses }), options.examples),
    );
  }, options.timeout ?? 180_000);
}
