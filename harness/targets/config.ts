import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DEFAULT_REST_DOMAIN, DEFAULT_SOAP_DOMAIN, ENVIRONMENTS, limits, type Environment } from '../spec/index.ts';
import type { Account, EnvironmentEndpoints } from './types.ts';

/** A secret in a target config: a literal, or the name of an environment variable that holds it. */
export type SecretRef = string | { readonly env: string };

export interface AccountConfig {
  readonly epr: string;
  readonly pcc: string;
  readonly password: SecretRef;
  readonly restDomain?: string;
  readonly soapDomain?: string;
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

const FORMAT_HINT = 'See "Target config" in the README for the format.';

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
  if (typeof v === 'string') return v;
  if (isRecord(v) && typeof v.env === 'string' && v.env) return { env: v.env };
  throw invalid(file, at, 'must be a string or { "env": "VARIABLE_NAME" }');
}

/** Checks the shape of a parsed config, with a message naming the first field that is wrong. */
export function parseTargetConfig(value: unknown, file = '(inline)'): TargetConfig {
  if (!isRecord(value)) throw new ConfigError('CONFIG_INVALID', `target config ${file} must be a JSON object. ${FORMAT_HINT}`);
  const name = str(file, value, 'name', '', true) ?? 'live target';
  if (!isRecord(value.environments)) throw invalid(file, 'environments', 'is missing (an object with "cert" and/or "prod")');
  const environments: Partial<Record<Environment, EnvironmentEndpoints>> = {};
  const accounts: Partial<Record<Environment, AccountConfig>> = {};
  for (const key of Object.keys(value.environments)) {
    if (!ENVIRONMENTS.includes(key as Environment)) throw invalid(file, `environments.${key}`, 'is not an environment (use "cert" or "prod")');
  }
  const accountsIn = isRecord(value.accounts) ? value.accounts : undefined;
  if (!accountsIn) throw invalid(file, 'accounts', 'is missing (an object with an account per environment)');
  for (const env of ENVIRONMENTS) {
    const e = value.environments[env];
    if (e === undefined) continue;
    if (!isRecord(e)) throw invalid(file, `environments.${env}`, 'must be an object with restBaseUrl and soapUrl');
    environments[env] = { restBaseUrl: url(file, e, 'restBaseUrl', `environments.${env}.`), soapUrl: url(file, e, 'soapUrl', `environments.${env}.`) };
    const a = accountsIn[env];
    if (a === undefined) {
      if (env === 'cert' || !value.environments.cert) throw invalid(file, `accounts.${env}`, `is missing: environment "${env}" needs an account`);
      continue;
    }
    if (!isRecord(a)) throw invalid(file, `accounts.${env}`, 'must be an object with epr, pcc and password');
    const restDomain = str(file, a, 'restDomain', `accounts.${env}.`, true);
    const soapDomain = str(file, a, 'soapDomain', `accounts.${env}.`, true);
    accounts[env] = {
      epr: str(file, a, 'epr', `accounts.${env}.`) as string,
      pcc: str(file, a, 'pcc', `accounts.${env}.`) as string,
      password: secret(file, a.password, `accounts.${env}.password`),
      ...(restDomain && { restDomain }),
      ...(soapDomain && { soapDomain }),
    };
  }
  if (!environments.cert && !environments.prod) throw invalid(file, 'environments', 'names no environment (add "cert" and/or "prod")');
  const num = (key: string): number | undefined => {
    const v = value[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) throw invalid(file, key, 'must be a positive integer');
    return v;
  };
  const sessionPoolSize = num('sessionPoolSize');
  const sessionTimeoutSeconds = num('sessionTimeoutSeconds');
  const requestTimeoutMs = num('requestTimeoutMs');
  if (value.allowOptIn !== undefined && typeof value.allowOptIn !== 'boolean') throw invalid(file, 'allowOptIn', 'must be true or false');
  const caFile = str(file, value, 'caFile', '', true);
  return {
    name,
    environments,
    accounts,
    ...(sessionPoolSize !== undefined && { sessionPoolSize }),
    ...(sessionTimeoutSeconds !== undefined && { sessionTimeoutSeconds }),
    ...(requestTimeoutMs !== undefined && { requestTimeoutMs }),
    ...(typeof value.allowOptIn === 'boolean' && { allowOptIn: value.allowOptIn }),
    ...(caFile !== undefined && { caFile: resolve(dirname(file), caFile) }),
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
    throw new ConfigError('CONFIG_NOT_JSON', `target config ${file} is not valid JSON (${(err as Error).message}). ${FORMAT_HINT}`);
  }
  return parseTargetConfig(value, file);
}

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
  };
}

export function sessionTimeoutOf(config: TargetConfig): number {
  return config.sessionTimeoutSeconds ?? limits.defaultSessionTimeoutSeconds;
}
