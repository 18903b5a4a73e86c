import { jsonErrorPlace } from '../json-error.ts';
import { readFileSync, statSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { DEFAULT_REST_DOMAIN, DEFAULT_SOAP_DOMAIN, ENVIRONMENTS, limits, type Environment } from '../catalog/index.ts';
import type { FaultCodes } from '../classify/index.ts';
import type { TokenKind } from '../catalog/index.ts';
import type { ApiRef, Probes, RestProbe, SoapProbe } from './knowledge.ts';
import type { Account, EnvironmentEndpoints } from './types.ts';

/** A secret in a target config: a literal, or the name of an environment variable that holds it. */
export type SecretRef = string | { readonly env: string };

export interface AccountConfig {
  readonly epr: string;
  readonly pcc: string;
  readonly password: SecretRef;
  readonly restDomain?: string;
  readonly soapDomain?: string;
  /** The account's iPCC or organization, where it differs from `pcc`: also accepted as the Client ID's group (CRED-05). */
  readonly groupAlternatives?: readonly string[];
}

/** The target config file (ARCHITECTURE.md "Target config"). */
export interface TargetConfig {
  readonly name: string;
  readonly environments: Partial<Record<Environment, EnvironmentEndpoints>>;
  readonly accounts: Partial<Record<Environment, AccountConfig>>;
  readonly sessionPoolSize?: number;
  readonly sessionTimeoutSeconds?: number;
  readonly allowOptIn?: boolean;
  /** PEM file of a private CA to trust (path relative to the config file). */
  readonly caFile?: string;
  readonly requestTimeoutMs?: number;
  /** Longest a request may wait out the service's throttling (429, 503, busy faults) before its check ends `error` (default 60). */
  readonly throttleWaitSeconds?: number;
  /**
   * Longest the service may take to release a session's pool slot after it acknowledged the close or the session timed
   * out: a SessionCreateRQ refused as the pool being full where a slot should be free is sent again over this time
   * (default {@link DEFAULT_SLOT_RELEASE_MS}; 0 for a service that releases the slot as it answers the close).
   */
  readonly slotReleaseMs?: number;
  /**
   * The name of the correlation header every request carries (`X-Conformance-Check` when left out), or `false` for
   * a service that refuses unknown headers (see harness/checks/trace.ts).
   */
  readonly correlationHeader?: string | false;
  /** The calls token-acceptance checks make (defaults in `knowledge.ts`). */
  readonly probes?: Partial<Probes>;
  /** Fault codes of this service, beyond those the document and the public facts name. */
  readonly faultCodes?: Partial<Record<keyof FaultCodes, readonly string[]>>;
  /** The token kinds each API accepts, as its reference lists them (ACCESS-01). */
  readonly tokenKinds?: Readonly<Record<ApiRef, readonly TokenKind[]>>;
  /** Accounts and the access they are expected to have (ACCESS-02..04, ENV-03). */
  readonly access?: AccessConfig;
}

/** Accounts a live target declares for the access rules, with what each may and may not reach. */
export interface AccessConfig {
  readonly otherAgency?: { readonly account: AccountConfig; readonly agencyApis: readonly ApiRef[] };
  readonly portal?: { readonly account: AccountConfig; readonly publicApis: readonly ApiRef[]; readonly otherApis: readonly ApiRef[] };
  readonly noAmendment?: { readonly account: AccountConfig; readonly amendmentApis: readonly ApiRef[] };
  readonly certOnly?: AccountConfig;
}

/** Every account a config holds (main ones and those of `access`), for resolving their secrets up front. */
export function configAccounts(config: TargetConfig): AccountConfig[] {
  const a = config.access;
  return [
    ...Object.values(config.accounts).filter((x): x is AccountConfig => x !== undefined),
    ...[a?.otherAgency?.account, a?.portal?.account, a?.noAmendment?.account, a?.certOnly].filter((x): x is AccountConfig => x !== undefined),
  ];
}

export type ConfigErrorCode = 'CONFIG_NOT_FOUND' | 'CONFIG_NOT_JSON' | 'CONFIG_INVALID' | 'SECRET_NOT_SET';

/** A target config that cannot be used. The message says what is wrong and what to do. */
export class ConfigError extends Error {
  constructor(
    readonly code: ConfigErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

const FORMAT_HINT = 'See docs/target-config.md for the format.';

function invalid(file: string, field: string, problem: string): ConfigError {
  return new ConfigError('CONFIG_INVALID', `target config ${file}: "${field}" ${problem}. ${FORMAT_HINT}`);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(file: string, obj: Record<string, unknown>, key: string, at: string, optional = false): string | undefined {
  const v = obj[key];
  if (v === undefined && optional) return undefined;
  if (typeof v !== 'string' || v.trim() === '') throw invalid(file, `${at}${key}`, v === undefined ? 'is missing' : 'must be a non-empty string');
  return v;
}

function url(file: string, obj: Record<string, unknown>, key: string, at: string): string {
  const v = str(file, obj, key, at) as string;
  let parsed: URL;
  try {
    parsed = new URL(v);
  } catch {
    throw invalid(file, `${at}${key}`, `is not a URL (${JSON.stringify(v)})`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw invalid(file, `${at}${key}`, 'must be an http(s) URL');
  return v.replace(/\/+$/, '');
}

function secret(file: string, v: unknown, at: string): SecretRef {
  if (typeof v === 'string') {
    if (v === '') throw invalid(file, at, 'is empty: give the password, or { "env": "VARIABLE_NAME" } to read it from the environment');
    return v;
  }
  if (isRecord(v) && typeof v.env === 'string' && v.env) {
    onlyKeys(file, v, ['env'], `${at}.`);
    return { env: v.env };
  }
  throw invalid(file, at, 'must be a string or { "env": "VARIABLE_NAME" }');
}

/**
 * A key the config does not know is a mistake to name (a typo such as "sesionPoolSize" would otherwise leave the
 * setting at its default without a word); `$schema` and `$comment` are left for editors and people.
 */
function onlyKeys(file: string, v: Record<string, unknown>, known: readonly string[], prefix: string): void {
  const unknown = Object.keys(v).find((k) => !known.includes(k) && k !== '$schema' && k !== '$comment');
  if (unknown !== undefined) throw invalid(file, `${prefix}${unknown}`, `is not a setting of a target config (known here: ${known.join(', ')}); see docs/target-config.md`);
}

/** How long a deployed service may take to release a slot, when its config does not say (suites/service/support/sessions.ts). */
export const DEFAULT_SLOT_RELEASE_MS = 3_000;
/** The longest release a config may declare: the checks wait for it at each slot they expect back. */
const MAX_SLOT_RELEASE_MS = 600_000;

const TOP_KEYS = ['name', 'environments', 'accounts', 'sessionPoolSize', 'sessionTimeoutSeconds', 'requestTimeoutMs', 'throttleWaitSeconds', 'slotReleaseMs', 'allowOptIn', 'caFile', 'correlationHeader', 'probes', 'faultCodes', 'tokenKinds', 'access'] as const;
const ACCOUNT_KEYS = ['epr', 'pcc', 'password', 'restDomain', 'soapDomain'] as const;

/** Checks the shape of a parsed config, with a message naming the first field that is wrong. */
export function parseTargetConfig(value: unknown, file = '(inline)'): TargetConfig {
  if (!isRecord(value)) throw new ConfigError('CONFIG_INVALID', `target config ${file} must be a JSON object. ${FORMAT_HINT}`);
  onlyKeys(file, value, TOP_KEYS, '');
  const name = str(file, value, 'name', '', true) ?? 'live target';
  if (!isRecord(value.environments)) throw invalid(file, 'environments', 'is missing (an object with "cert" and/or "prod")');
  const environments: Partial<Record<Environment, EnvironmentEndpoints>> = {};
  const accounts: Partial<Record<Environment, AccountConfig>> = {};
  for (const key of Object.keys(value.environments)) {
    if (!ENVIRONMENTS.includes(key as Environment)) throw invalid(file, `environments.${key}`, 'is not an environment (use "cert" or "prod")');
  }
  const accountsIn = isRecord(value.accounts) ? value.accounts : undefined;
  if (!accountsIn) throw invalid(file, 'accounts', 'is missing (an object with an account per environment)');
  onlyKeys(file, accountsIn, ENVIRONMENTS, 'accounts.');
  for (const env of ENVIRONMENTS) {
    const e = value.environments[env];
    if (e === undefined) continue;
    if (!isRecord(e)) throw invalid(file, `environments.${env}`, 'must be an object with restBaseUrl and soapUrl');
    onlyKeys(file, e, ['restBaseUrl', 'soapUrl'], `environments.${env}.`);
    environments[env] = { restBaseUrl: url(file, e, 'restBaseUrl', `environments.${env}.`), soapUrl: url(file, e, 'soapUrl', `environments.${env}.`) };
    const a = accountsIn[env];
    if (a === undefined) {
      if (env === 'cert' || !value.environments.cert) throw invalid(file, `accounts.${env}`, `is missing: environment "${env}" needs an account`);
      continue;
    }
    if (!isRecord(a)) throw invalid(file, `accounts.${env}`, 'must be an object with epr, pcc and password');
    onlyKeys(file, a, [...ACCOUNT_KEYS, 'groupAlternatives'], `accounts.${env}.`);
    const restDomain = str(file, a, 'restDomain', `accounts.${env}.`, true);
    const soapDomain = str(file, a, 'soapDomain', `accounts.${env}.`, true);
    const groupAlternatives = a.groupAlternatives === undefined ? undefined : alternatives(file, a.groupAlternatives, `accounts.${env}.groupAlternatives`);
    accounts[env] = {
      epr: str(file, a, 'epr', `accounts.${env}.`) as string,
      pcc: str(file, a, 'pcc', `accounts.${env}.`) as string,
      password: secret(file, a.password, `accounts.${env}.password`),
      ...(restDomain && { restDomain }),
      ...(soapDomain && { soapDomain }),
      ...(groupAlternatives && { groupAlternatives }),
    };
  }
  if (!environments.cert && !environments.prod) throw invalid(file, 'environments', 'names no environment (add "cert" and/or "prod")');
  // CERT and PROD are two services: at one URL, a run could not tell them apart, and would judge one as the other.
  if (environments.cert && environments.prod) {
    for (const key of ['restBaseUrl', 'soapUrl'] as const) {
      if (environments.cert[key] === environments.prod[key]) throw invalid(file, `environments.prod.${key}`, `is CERT's ${key} too: give each environment its own URLs (or leave "prod" out)`);
    }
  }
  // Time limits become timers: Node's setTimeout takes at most 2^31 - 1 ms.
  const num = (key: string, max = Number.MAX_SAFE_INTEGER): number | undefined => {
    const v = value[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0 || v > max) throw invalid(file, key, `must be a positive integer${max < Number.MAX_SAFE_INTEGER ? ` of at most ${max}` : ''}`);
    return v;
  };
  const sessionPoolSize = num('sessionPoolSize');
  const sessionTimeoutSeconds = num('sessionTimeoutSeconds', 2_147_483);
  const requestTimeoutMs = num('requestTimeoutMs', 2_147_483_647);
  const throttleWaitSeconds = num('throttleWaitSeconds', 2_147_483);
  const slotReleaseMs = value['slotReleaseMs'];
  if (slotReleaseMs !== undefined && (typeof slotReleaseMs !== 'number' || !Number.isInteger(slotReleaseMs) || slotReleaseMs < 0 || slotReleaseMs > MAX_SLOT_RELEASE_MS)) {
    throw invalid(file, 'slotReleaseMs', `must be a whole number of milliseconds from 0 to ${MAX_SLOT_RELEASE_MS}`);
  }
  if (value.allowOptIn !== undefined && typeof value.allowOptIn !== 'boolean') throw invalid(file, 'allowOptIn', 'must be true or false');
  const caFile = str(file, value, 'caFile', '', true);
  const correlationHeader = value.correlationHeader;
  if (correlationHeader !== undefined && correlationHeader !== false && !(typeof correlationHeader === 'string' && HEADER_NAME.test(correlationHeader))) {
    throw invalid(file, 'correlationHeader', 'must be an HTTP header name (letters, digits and "-", such as "X-Conformance-Check") or false to send none');
  }
  const probes = value.probes === undefined ? undefined : parseProbes(file, value.probes);
  const faultCodes = value.faultCodes === undefined ? undefined : parseFaultCodes(file, value.faultCodes);
  const tokenKinds = value.tokenKinds === undefined ? undefined : parseTokenKinds(file, value.tokenKinds);
  const access = value.access === undefined ? undefined : parseAccess(file, value.access);
  return {
    ...(probes && { probes }),
    ...(faultCodes && { faultCodes }),
    ...(tokenKinds && { tokenKinds }),
    ...(access && { access }),
    name,
    environments,
    accounts,
    ...(sessionPoolSize !== undefined && { sessionPoolSize }),
    ...(sessionTimeoutSeconds !== undefined && { sessionTimeoutSeconds }),
    ...(requestTimeoutMs !== undefined && { requestTimeoutMs }),
    ...(throttleWaitSeconds !== undefined && { throttleWaitSeconds }),
    ...(slotReleaseMs !== undefined && { slotReleaseMs }),
    ...(typeof value.allowOptIn === 'boolean' && { allowOptIn: value.allowOptIn }),
    ...(caFile !== undefined && { caFile: resolve(dirname(file), caFile) }),
    ...(correlationHeader !== undefined && { correlationHeader: correlationHeader as string | false }),
  };
}

/** An HTTP header name as the harness accepts one for its correlation header. */
export const HEADER_NAME = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;

/** `groupAlternatives`: a non-empty list of the account's iPCC or organization values, none empty nor with a ":". */
function alternatives(file: string, v: unknown, at: string): string[] {
  if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'string' && x.trim() !== '' && !x.includes(':'))) {
    throw invalid(file, at, 'must be a non-empty list of the account\'s iPCC or organization values (strings without ":"), e.g. ["7TZA"]');
  }
  return v as string[];
}

function accountConfig(file: string, a: unknown, at: string): AccountConfig {
  if (!isRecord(a)) throw invalid(file, at, 'must be an object with epr, pcc and password');
  onlyKeys(file, a, ACCOUNT_KEYS, `${at}.`);
  const restDomain = str(file, a, 'restDomain', `${at}.`, true);
  const soapDomain = str(file, a, 'soapDomain', `${at}.`, true);
  return {
    epr: str(file, a, 'epr', `${at}.`) as string,
    pcc: str(file, a, 'pcc', `${at}.`) as string,
    password: secret(file, a.password, `${at}.password`),
    ...(restDomain && { restDomain }),
    ...(soapDomain && { soapDomain }),
  };
}

function apiList(file: string, v: unknown, at: string): ApiRef[] {
  if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'string' && x.trim() !== '')) {
    throw invalid(file, at, 'must be a non-empty list of APIs: REST paths ("/v1/offers/shop", "POST /v2.0.0/GetHotelRateInfoRQ") or SOAP actions ("OTA_HotelAvailLLSRQ")');
  }
  return v as string[];
}

function parseProbes(file: string, v: unknown): Partial<Probes> {
  if (!isRecord(v)) throw invalid(file, 'probes', 'must be an object with rest, soapSessionless and/or soapSession');
  const out: { rest?: RestProbe; soapSessionless?: SoapProbe; soapSession?: SoapProbe } = {};
  for (const key of Object.keys(v)) if (!['rest', 'soapSessionless', 'soapSession'].includes(key)) throw invalid(file, `probes.${key}`, 'is not a probe (use rest, soapSessionless or soapSession)');
  if (v.rest !== undefined) {
    const r = v.rest;
    if (typeof r === 'string') {
      const m = /^(?:(GET|POST)\s+)?(\/\S*)$/.exec(r.trim());
      if (!m) throw invalid(file, 'probes.rest', 'must be "GET /path" or "POST /path" (or an object with method, path, body)');
      const [path, query] = (m[2] as string).split('?', 2) as [string, string | undefined];
      out.rest = { method: (m[1] as 'GET' | 'POST' | undefined) ?? 'GET', path, ...(query && { query }) };
    } else if (isRecord(r)) {
      const method = r.method ?? 'GET';
      if (method !== 'GET' && method !== 'POST') throw invalid(file, 'probes.rest.method', 'must be "GET" or "POST"');
      const path = str(file, r, 'path', 'probes.rest.') as string;
      if (!path.startsWith('/')) throw invalid(file, 'probes.rest.path', 'must start with "/"');
      const [p, query] = path.split('?', 2) as [string, string | undefined];
      const body = str(file, r, 'body', 'probes.rest.', true);
      out.rest = { method, path: p, ...(query && { query }), ...(body !== undefined && { body }) };
    } else throw invalid(file, 'probes.rest', 'must be "GET /path" or an object with method, path, body');
  }
  for (const key of ['soapSessionless', 'soapSession'] as const) {
    const p = v[key];
    if (p === undefined) continue;
    if (typeof p === 'string' && p.trim() !== '') out[key] = { action: p.trim() };
    else if (isRecord(p)) {
      const body = str(file, p, 'body', `probes.${key}.`, true);
      out[key] = { action: str(file, p, 'action', `probes.${key}.`) as string, ...(body !== undefined && { body }) };
    } else throw invalid(file, `probes.${key}`, 'must be a SOAP action name or an object with action and body (the XML of the body element)');
  }
  return out;
}

const FAULT_CODE_KINDS = ['invalidToken', 'authentication', 'notAuthorized', 'poolFull', 'unknownAction', 'busy'] as const;

function parseFaultCodes(file: string, v: unknown): Partial<Record<keyof FaultCodes, readonly string[]>> {
  if (!isRecord(v)) throw invalid(file, 'faultCodes', `must be an object with lists of fault codes under ${FAULT_CODE_KINDS.join(', ')}`);
  const out: Partial<Record<keyof FaultCodes, readonly string[]>> = {};
  for (const [key, list] of Object.entries(v)) {
    if (!(FAULT_CODE_KINDS as readonly string[]).includes(key)) throw invalid(file, `faultCodes.${key}`, `is not a kind of fault (use ${FAULT_CODE_KINDS.join(', ')})`);
    if (!Array.isArray(list) || !list.every((x) => typeof x === 'string' && x !== '')) throw invalid(file, `faultCodes.${key}`, 'must be a list of fault codes such as "Client.NotAuthorized"');
    out[key as keyof FaultCodes] = list as string[];
  }
  return out;
}

function parseTokenKinds(file: string, v: unknown): Record<ApiRef, readonly TokenKind[]> {
  if (!isRecord(v)) throw invalid(file, 'tokenKinds', 'must map APIs to the token kinds they accept, as in { "OTA_HotelAvailLLSRQ": ["session"] }');
  const out: Record<ApiRef, readonly TokenKind[]> = {};
  for (const [api, kinds] of Object.entries(v)) {
    if (!Array.isArray(kinds) || kinds.length === 0 || !kinds.every((k) => k === 'sessionless' || k === 'session')) {
      throw invalid(file, `tokenKinds.${api}`, 'must be a non-empty list of "sessionless" and/or "session"');
    }
    out[api] = kinds as TokenKind[];
  }
  return out;
}

function parseAccess(file: string, v: unknown): AccessConfig {
  if (!isRecord(v)) throw invalid(file, 'access', 'must be an object with otherAgency, portal, noAmendment and/or certOnly');
  for (const key of Object.keys(v)) if (!['otherAgency', 'portal', 'noAmendment', 'certOnly'].includes(key)) throw invalid(file, `access.${key}`, 'is not known (use otherAgency, portal, noAmendment or certOnly)');
  const part = (key: string): Record<string, unknown> | undefined => {
    const x = v[key];
    if (x === undefined) return undefined;
    if (!isRecord(x)) throw invalid(file, `access.${key}`, 'must be an object with an account and its APIs');
    return x;
  };
  const other = part('otherAgency');
  const portal = part('portal');
  const noAmendment = part('noAmendment');
  return {
    ...(other && { otherAgency: { account: accountConfig(file, other.account, 'access.otherAgency.account'), agencyApis: apiList(file, other.agencyApis, 'access.otherAgency.agencyApis') } }),
    ...(portal && {
      portal: {
        account: accountConfig(file, portal.account, 'access.portal.account'),
        publicApis: apiList(file, portal.publicApis, 'access.portal.publicApis'),
        otherApis: apiList(file, portal.otherApis, 'access.portal.otherApis'),
      },
    }),
    ...(noAmendment && { noAmendment: { account: accountConfig(file, noAmendment.account, 'access.noAmendment.account'), amendmentApis: apiList(file, noAmendment.amendmentApis, 'access.noAmendment.amendmentApis') } }),
    ...(v.certOnly !== undefined && { certOnly: accountConfig(file, v.certOnly, 'access.certOnly') }),
  };
}

/** Reads and checks a target config file. */
export function loadTargetConfig(file: string): TargetConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new ConfigError('CONFIG_NOT_FOUND', `target config ${file} cannot be read: check the path given to --target (a JSON file, or "sim").`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // Where, not what: the parser's message quotes the text around the error, which may be a password.
    throw new ConfigError('CONFIG_NOT_JSON', `target config ${file} is not valid JSON (${jsonErrorPlace(text, err)}). ${FORMAT_HINT}`);
  }
  const config = parseTargetConfig(value, file);
  // The CA file is read when the transport is made, by every command: a path that is no readable file is the config's
  // mistake, said before anything runs.
  if (config.caFile !== undefined) {
    let pem: string;
    try {
      if (!statSync(config.caFile).isFile()) throw Object.assign(new Error('a directory'), { code: 'EISDIR' });
      pem = readFileSync(config.caFile, 'utf8');
    } catch (err) {
      throw invalid(file, 'caFile', `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}: ${config.caFile}): give the PEM file of the CA to trust, relative to the config file`);
    }
    // Node would take a file without a certificate (or with a broken one) and trust nothing more: every TLS connection
    // to a private CA's server would then fail as unreachable, far from the cause.
    const problem = pemProblem(pem);
    if (problem) throw invalid(file, 'caFile', `${problem} (${config.caFile}): give the PEM file of the CA to trust (-----BEGIN CERTIFICATE-----), relative to the config file`);
  }
  return config;
}

/** What is wrong with a CA file's text: no PEM certificate in it, or one that does not parse; `undefined` when none. */
export function pemProblem(pem: string): string | undefined {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) return 'holds no PEM certificate';
  const bad = blocks.findIndex((b) => {
    try {
      new X509Certificate(b);
      return false;
    } catch {
      return true;
    }
  });
  return bad < 0 ? undefined : `holds a certificate that cannot be read (the ${ordinal(bad + 1)} of ${blocks.length})`;
}

const ordinal = (n: number) => (n === 1 ? 'first' : n === 2 ? 'second' : n === 3 ? 'third' : `${n}th`);

/** Resolves a secret; throws a {@link ConfigError} naming the variable when it is not set. */
export function resolveSecret(ref: SecretRef, env: NodeJS.ProcessEnv = process.env): string {
  if (typeof ref === 'string') return ref;
  const value = env[ref.env];
  if (value === undefined || value === '') {
    throw new ConfigError('SECRET_NOT_SET', `environment variable ${ref.env} is not set; the target config reads a password from it. Export it (e.g. from .env) and run again.`);
  }
  return value;
}

export function resolveAccount(a: AccountConfig, env: NodeJS.ProcessEnv = process.env): Account {
  return {
    epr: a.epr,
    pcc: a.pcc,
    password: resolveSecret(a.password, env),
    restDomain: a.restDomain ?? DEFAULT_REST_DOMAIN,
    soapDomain: a.soapDomain ?? DEFAULT_SOAP_DOMAIN,
    ...(a.groupAlternatives && { groupAlternatives: a.groupAlternatives }),
  };
}

/** How long the service may take to release a slot after a close or a timeout (milliseconds). */
export function slotReleaseOf(config: TargetConfig): number {
  return config.slotReleaseMs ?? DEFAULT_SLOT_RELEASE_MS;
}

export function sessionTimeoutOf(config: TargetConfig): number {
  return config.sessionTimeoutSeconds ?? limits.defaultSessionTimeoutSeconds;
}
