/**
 * One observation: the upstream (the built-in simulator, CERT or a target config), the recording proxy in front of
 * it, the injections, and at the end the judgement and the report.
 */
import { withFaultCodes, DEFAULT_FAULT_CODES, type FaultCodes } from '../classify/index.ts';
import { TOOL_VERSION } from '../package-info.ts';
import { Redactor, type Report, type RunError } from '../report/index.ts';
import { DriftingClock, SimCore, defaultAccounts, startSimServer, type SimAccount, type SimServer } from '../sim/index.ts';
import { profileFaultCodes, type LatitudeProfile } from '../sim/latitude.ts';
import { DEFAULT_REST_DOMAIN, type Environment, type RuleId } from '../catalog/index.ts';
import { ConfigError, createTransport, resolveAccount, type AccountConfig, type EnvironmentEndpoints, type TargetConfig, type Transport } from '../targets/index.ts';
import { targetConfigFor } from '../targets/presets.ts';
import type { EnvelopeValidator } from '../soap/index.ts';
import type { JudgeContext, KnownAccount, ObservedExchange } from './exchange.ts';
import { Injector, type Injection } from './inject.ts';
import type { Judgement } from './judge.ts';
import { startRecordingProxy, type RecordingProxy } from './proxy.ts';
import { RunningJudge, type RetainedState } from './running-judge.ts';
import { registerSecretsOf } from './secrets.ts';
import { BodySpool } from './spool.ts';
import { observedReport } from './verdict.ts';

/** What the judge needs besides the traffic (`wholeRun` is told when it judges). */
function contextOf(
  accounts: Partial<Record<Environment, KnownAccount[]>>, poolSize: number | undefined, faultCodes: FaultCodes, injector: Injector | undefined, source: JudgeContext['source'],
): JudgeContext {
  return { accounts, sessionPoolSize: poolSize, faultCodes, wholeRun: false, expired: injector?.expired ?? new Map(), source };
}

/** The events the simulator upstream keeps (its event log is not read by the judge: the proxy records the traffic). */
const SIM_EVENTS_KEPT = 1_000;

export interface ObservationOptions {
  /** `sim` (the built-in simulator), `cert` (the CERT preset, account from TDS_CERT_*), or a target config file. */
  readonly upstream: string;
  readonly host?: string;
  readonly port?: number;
  /** Fault injection; the simulator upstream only. */
  readonly injections?: readonly Injection[];
  /** The session pool the application is configured with (SESS-08). */
  readonly sessionPoolSize?: number;
  /** Seed of the simulator's accounts and tokens. */
  readonly seed?: number;
  readonly requestTimeoutMs?: number;
  /** The clock injections age tokens by (tests move it); default `Date.now`. */
  readonly injectionClock?: () => number;
  /** The simulator upstream as a stand-in for a learned target (`--sim-profile`): its profile, and the defects of its deviations. */
  readonly simProfile?: { readonly profile: LatitudeProfile; readonly defects: readonly string[] };
  /**
   * Starts the schema validator, when the first SOAP exchange comes (so that envelopes are validated as they come);
   * `undefined` from it: the schema clauses say so. Without it, the validator is given to {@link Observation.judge}.
   */
  readonly startValidator?: () => Promise<EnvelopeValidator | undefined>;
  /** Keep every recorded exchange (`proxy.exchanges()`, for tests): memory then grows with the traffic. */
  readonly keepExchanges?: boolean;
  /** How many tokens the running judge keeps (token-book.ts). */
  readonly tokensKept?: number;
}

export interface ObservationResult {
  readonly judgement: Judgement;
  /** The report, before redaction (write it with the observation's redactor). */
  readonly report: Report;
}

/** An account known from a target config: `restDomainDeclared` when the config names the REST domain. */
export function knownFromConfig(config: TargetConfig, env: Environment, variables: NodeJS.ProcessEnv = process.env): KnownAccount[] {
  const known = (a: AccountConfig): KnownAccount => ({ ...resolveAccount(a, variables), restDomainDeclared: a.restDomain !== undefined, soapDomainDeclared: a.soapDomain !== undefined, ...(config.sessionPoolSize !== undefined && { poolSize: config.sessionPoolSize }) });
  const main = config.accounts[env];
  // The accounts of "access" are CERT accounts (ACCESS rules): an application may use them too.
  const x = config.access;
  const more = env === 'cert' ? [x?.otherAgency?.account, x?.noAmendment?.account, x?.portal?.account, x?.certOnly].filter((a): a is AccountConfig => a !== undefined) : [];
  return [...(main ? [main] : []), ...more].map(known);
}

/** A simulator account as the judge knows it; the default domain counts as "no domain configured" (CRED-04). */
function knownFromSim(a: SimAccount): KnownAccount {
  return {
    epr: a.epr, pcc: a.pcc, password: a.password, restDomain: a.restDomain, soapDomain: a.soapDomain, restDomainDeclared: a.restDomain !== DEFAULT_REST_DOMAIN, poolSize: a.poolSize,
    ...(a.groupAlternatives && { groupAlternatives: a.groupAlternatives }),
  };
}

function describe(a: SimAccount): string {
  return `EPR ${a.epr}, PCC ${a.pcc}, password ${a.password}, REST domain ${a.restDomain}, SOAP domain ${a.soapDomain}, pool ${a.poolSize}`;
}

/** The running judge of an observation, and the schema validator it started. */
interface Judging {
  readonly judge: RunningJudge;
  /** Takes each exchange the proxy hands over (by start, then seq). */
  readonly onExchange: (x: ObservedExchange) => void;
  /** The validator started with the first SOAP exchange, if any. */
  validator: Promise<EnvelopeValidator | undefined> | undefined;
  readonly validating: boolean;
}

/** A running judge for `ctx`: it registers the secrets of the exchanges its verdicts cite with `redactor`. */
function judging(ctx: JudgeContext, redactor: Redactor, options: ObservationOptions): Judging {
  const judge = new RunningJudge(ctx, { cite: (x) => registerSecretsOf(x, redactor), tokensKept: options.tokensKept });
  const state: Judging = {
    judge,
    validator: undefined,
    validating: options.startValidator !== undefined,
    onExchange: (x) => {
      if (x.protocol === 'soap' && !state.validator && options.startValidator) {
        state.validator = options.startValidator().catch(() => undefined);
        void state.validator.then((v) => judge.attachValidator(v));
      }
      judge.add(x);
    },
  };
  return state;
}

export class Observation {
  readonly proxy: RecordingProxy;
  readonly redactor: Redactor;
  readonly kind: 'sim' | 'live';
  readonly name: string;
  readonly startedAt = new Date();
  readonly #accounts: Partial<Record<Environment, KnownAccount[]>>;
  readonly #faultCodes: FaultCodes;
  readonly #poolSize: number | undefined;
  readonly #injector: Injector | undefined;
  readonly #sim: { core: SimCore; server: SimServer; accounts: ReturnType<typeof defaultAccounts> } | undefined;
  readonly #transport: Transport;
  readonly #spool: BodySpool;
  readonly #judging: Judging;

  private constructor(init: {
    proxy: RecordingProxy; redactor: Redactor; kind: 'sim' | 'live'; name: string; accounts: Partial<Record<Environment, KnownAccount[]>>; faultCodes: FaultCodes;
    poolSize: number | undefined; injector: Injector | undefined; sim: { core: SimCore; server: SimServer; accounts: ReturnType<typeof defaultAccounts> } | undefined; transport: Transport;
    spool: BodySpool; judging: Judging;
  }) {
    this.proxy = init.proxy;
    this.redactor = init.redactor;
    this.kind = init.kind;
    this.name = init.name;
    this.#accounts = init.accounts;
    this.#faultCodes = init.faultCodes;
    this.#poolSize = init.poolSize;
    this.#injector = init.injector;
    this.#sim = init.sim;
    this.#transport = init.transport;
    this.#spool = init.spool;
    this.#judging = init.judging;
  }

  /**
   * Starts the upstream and the proxy in front of it.
   * @throws {ConfigError} for an upstream that cannot be used, {@link UsageError} for injections on a live upstream.
   */
  static async start(options: ObservationOptions): Promise<Observation> {
    const redactor = new Redactor();
    const injections = options.injections ?? [];
    if (options.upstream === 'sim') {
      const seed = options.seed ?? 1;
      const stand = options.simProfile;
      const accounts = defaultAccounts(seed, stand ? { poolSize: stand.profile.poolSize, sessionTimeoutSeconds: stand.profile.sessionTimeoutSeconds } : {});
      // The proxy records the traffic: the simulator's own event log (each request, body included) need not hold it
      // again, only its last events.
      const core = new SimCore({ clock: new DriftingClock(), accounts: accounts.accounts, seed, maxEvents: SIM_EVENTS_KEPT, ...(stand && { profile: stand.profile, defects: stand.defects }) });
      const latency = stand?.profile.latencyMs ?? 0;
      const server = await startSimServer(core, latency > 0 ? { delay: () => latency } : {});
      for (const a of [...accounts.accounts.cert, ...accounts.accounts.prod]) redactor.addPassword(a.password);
      const transport = createTransport({ timeoutMs: options.requestTimeoutMs ?? 10_000 });
      const injector = new Injector(core, injections, options.injectionClock);
      const spool = new BodySpool();
      try {
        const known = { cert: accounts.accounts.cert.map(knownFromSim), prod: accounts.accounts.prod.map(knownFromSim) };
        const faultCodes = stand ? withFaultCodes(profileFaultCodes(stand.profile)) : DEFAULT_FAULT_CODES;
        const judged = judging(contextOf(known, options.sessionPoolSize, faultCodes, injector, 'observe-sim'), redactor, options);
        const proxy = await startRecordingProxy({
          upstream: server.urls, transport, redactor, hooks: injector, spool, onExchange: judged.onExchange, keepExchanges: options.keepExchanges ?? false,
          ...(options.host && { host: options.host }), ...(options.port !== undefined && { port: options.port }),
        });
        return new Observation({
          proxy, redactor, kind: 'sim', name: 'observed application (upstream: simulator)',
          accounts: known, faultCodes, poolSize: options.sessionPoolSize, injector, sim: { core, server, accounts }, transport, spool, judging: judged,
        });
      } catch (err) {
        spool.close();
        await transport.close();
        await server.close();
        throw err;
      }
    }
    if (injections.length > 0) {
      throw new ConfigError('CONFIG_INVALID', `--inject acts on the built-in simulator only: use it with --upstream sim, not ${options.upstream}.`);
    }
    const config = targetConfigFor(options.upstream);
    const accounts: Partial<Record<Environment, KnownAccount[]>> = { cert: knownFromConfig(config, 'cert'), prod: knownFromConfig(config, 'prod') };
    for (const a of Object.values(accounts).flat()) if (a) redactor.addPassword(a.password);
    const transport = createTransport({ timeoutMs: options.requestTimeoutMs ?? config.requestTimeoutMs ?? 30_000, useEnvProxy: true });
    const spool = new BodySpool();
    try {
      const faultCodes = withFaultCodes(config.faultCodes);
      const poolSize = options.sessionPoolSize ?? config.sessionPoolSize;
      const judged = judging(contextOf(accounts, poolSize, faultCodes, undefined, 'observe-live'), redactor, options);
      const proxy = await startRecordingProxy({
        upstream: config.environments, transport, redactor, spool, onExchange: judged.onExchange, keepExchanges: options.keepExchanges ?? false,
        ...(options.host && { host: options.host }), ...(options.port !== undefined && { port: options.port }),
      });
      return new Observation({
        proxy, redactor, kind: 'live', name: `observed application (upstream: ${config.name})`, accounts, faultCodes,
        poolSize, injector: undefined, sim: undefined, transport, spool, judging: judged,
      });
    } catch (err) {
      spool.close();
      await transport.close();
      throw err;
    }
  }

  /** The lines `observe` prints at start: one per environment, and the simulator's accounts. */
  banner(): string[] {
    const lines: string[] = [];
    for (const env of ['cert', 'prod'] as const) {
      const u = this.proxy.urls[env];
      if (u) lines.push(`  ${env.toUpperCase().padEnd(4)} REST ${u.restBaseUrl}   SOAP ${u.soapUrl}`);
    }
    const sim = this.#sim;
    if (sim) {
      const a = sim.accounts;
      lines.push('', 'Accounts (simulator credentials, valid only here):');
      lines.push(`  CERT main         ${describe(a.main.cert)}`, `  PROD main         ${describe(a.main.prod)}`);
      lines.push(`  CERT other PCC    ${describe(a.otherAgency)}`, `  CERT no amendment ${describe(a.noAmendment)}`);
    }
    return lines;
  }

  /**
   * The environment variables an application run by `observe -- <command>` gets: `TDS_<ENV>_REST_URL` and
   * `TDS_<ENV>_SOAP_URL` (the proxy), and with the simulator upstream its main accounts (`TDS_<ENV>_EPR`, `_PCC`,
   * `_PASSWORD`); with a live upstream the application keeps its own credentials.
   */
  childEnvironment(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const env of ['cert', 'prod'] as const) {
      const u: EnvironmentEndpoints | undefined = this.proxy.urls[env];
      if (!u) continue;
      const E = env.toUpperCase();
      out[`TDS_${E}_REST_URL`] = u.restBaseUrl;
      out[`TDS_${E}_SOAP_URL`] = u.soapUrl;
      const a = this.#sim?.accounts.main[env];
      if (a) Object.assign(out, { [`TDS_${E}_EPR`]: a.epr, [`TDS_${E}_PCC`]: a.pcc, [`TDS_${E}_PASSWORD`]: a.password });
    }
    return out;
  }

  /** The simulator's accounts, with the simulator upstream. */
  simAccounts(): ReturnType<typeof defaultAccounts> | undefined {
    return this.#sim?.accounts;
  }

  /** What the judge needs besides the traffic. */
  context(wholeRun: boolean): JudgeContext {
    return { ...contextOf(this.#accounts, this.#poolSize, this.#faultCodes, this.#injector, this.kind === 'sim' ? 'observe-sim' : 'observe-live'), wholeRun };
  }

  /** Whether the observation starts its own schema validator (`startValidator`): then none need be given to {@link judge}. */
  get validating(): boolean {
    return this.#judging.validating;
  }

  /** Whether a SOAP exchange was recorded (the schema validator is needed). */
  get soapSeen(): boolean {
    return this.#judging.judge.soapSeen;
  }

  /** What the running judge holds (tests). */
  retained(): RetainedState {
    return this.#judging.judge.retained();
  }

  /**
   * Judges what was recorded so far (the running judge read it as it came) and builds the report (not written, not
   * redacted). `validator`: for the envelopes not validated yet, when the observation started none.
   */
  async judge(options: { wholeRun: boolean; only?: readonly RuleId[] | undefined; validator?: EnvelopeValidator | undefined }): Promise<ObservationResult> {
    this.proxy.settle();
    const started = await this.#judging.validator;
    const judgement = await this.#judging.judge.finish({ wholeRun: options.wholeRun, validator: started ?? options.validator, only: options.only });
    const report = observedReport(judgement.verdicts, {
      toolVersion: TOOL_VERSION,
      target: { name: this.name, kind: this.kind },
      startedAt: this.startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      selection: judgement.selection,
      runErrors: this.#upstreamErrors(),
    });
    return { judgement, report };
  }

  /**
   * The upstream's silence, as a run error: requests the proxy had to answer itself (502) are requests whose answers
   * nobody judged, so an observation with them is not a clean one (exit code 3, as for a run whose target could not be
   * reached). The application saw the 502 and the rules judged what it did about it, nothing more.
   */
  #upstreamErrors(): RunError[] {
    const { count, first } = this.proxy.unanswered();
    if (count === 0) return [];
    return [{ code: 'TARGET_UNREACHABLE', message: `the upstream gave no answer to ${count} of the ${this.proxy.count()} requests observed (the proxy answered them 502): ${first ?? ''}` }];
  }

  /** Stops the proxy and the upstream; the recorded bodies are removed (the exchanges can no longer be read). */
  async close(): Promise<void> {
    this.#injector?.close();
    await (await this.#judging.validator)?.close();
    await this.proxy.close();
    this.#spool.close();
    await this.#transport.close();
    await this.#sim?.server.close();
  }
}
