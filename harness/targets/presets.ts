import { environments } from '../spec/index.ts';
import type { TargetConfig } from './config.ts';

/**
 * Built-in target presets, named on the command line (`--target cert`). Credentials come from environment
 * variables (see `.env.example`): `TDS_CERT_EPR`, `TDS_CERT_PCC`, `TDS_CERT_PASSWORD`, and optionally
 * `TDS_CERT_REST_DOMAIN` (default `AA`) and `TDS_CERT_SOAP_DOMAIN` (default `DEFAULT`).
 */
export function presetConfig(name: string, env: NodeJS.ProcessEnv = process.env): TargetConfig | undefined {
  if (name !== 'cert') return undefined;
  const cert = environments.cert;
  return {
    name: 'CERT',
    environments: { cert: { restBaseUrl: cert.publicRestBaseUrl, soapUrl: cert.publicSoapUrl } },
    accounts: {
      cert: {
        epr: env.TDS_CERT_EPR ?? '',
        pcc: env.TDS_CERT_PCC ?? '',
        password: { env: 'TDS_CERT_PASSWORD' },
        ...(env.TDS_CERT_REST_DOMAIN && { restDomain: env.TDS_CERT_REST_DOMAIN }),
        ...(env.TDS_CERT_SOAP_DOMAIN && { soapDomain: env.TDS_CERT_SOAP_DOMAIN }),
      },
    },
  };
}

export const PRESETS = ['cert'] as const;
