import { environments } from '../catalog/index.ts';
import { ConfigError, loadTargetConfig, type TargetConfig } from './config.ts';

/** The variables the `cert` preset reads its account from; all must be set. */
const CERT_VARIABLES = ['TDS_CERT_EPR', 'TDS_CERT_PCC', 'TDS_CERT_PASSWORD'] as const;

/**
 * Built-in target presets, named on the command line (`--target cert`). Credentials come from environment
 * variables (see `.env.example`): `TDS_CERT_EPR`, `TDS_CERT_PCC`, `TDS_CERT_PASSWORD`, and optionally
 * `TDS_CERT_REST_DOMAIN` (default `AA`) and `TDS_CERT_SOAP_DOMAIN` (default `DEFAULT`).
 * Throws a {@link ConfigError} `SECRET_NOT_SET` naming every required variable that is unset or empty.
 */
export function presetConfig(name: string, env: NodeJS.ProcessEnv = process.env): TargetConfig | undefined {
  if (name !== 'cert') return undefined;
  const missing = CERT_VARIABLES.filter((variable) => !env[variable]);
  if (missing.length > 0) {
    const [subject, them] = missing.length === 1 ? [`environment variable ${missing.join('')} is`, 'it'] : [`environment variables ${missing.join(', ')} are`, 'them'];
    throw new ConfigError(
      'SECRET_NOT_SET',
      `${subject} not set; the "cert" target reads its account from TDS_CERT_EPR, TDS_CERT_PCC and TDS_CERT_PASSWORD. Export ${them} (e.g. from .env) and run again.`,
    );
  }
  const cert = environments.cert;
  return {
    name: 'CERT',
    environments: { cert: { restBaseUrl: cert.publicRestBaseUrl, soapUrl: cert.publicSoapUrl } },
    accounts: {
      cert: {
        epr: env.TDS_CERT_EPR as string,
        pcc: env.TDS_CERT_PCC as string,
        password: { env: 'TDS_CERT_PASSWORD' },
        ...(env.TDS_CERT_REST_DOMAIN && { restDomain: env.TDS_CERT_REST_DOMAIN }),
        ...(env.TDS_CERT_SOAP_DOMAIN && { soapDomain: env.TDS_CERT_SOAP_DOMAIN }),
      },
    },
  };
}

export const PRESETS = ['cert'] as const;

/**
 * What `--target` (or `--upstream`) names, as a config: a preset (`cert`) or the path of a target config file. The one
 * resolver of the CLI's commands (run, observe, judge); the run resolves it once and hands the config to its workers.
 */
export function targetConfigFor(nameOrPath: string, env: NodeJS.ProcessEnv = process.env): TargetConfig {
  return presetConfig(nameOrPath, env) ?? loadTargetConfig(nameOrPath);
}
