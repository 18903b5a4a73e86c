import type { Environment } from './types.ts';

export interface EnvironmentInfo {
  readonly id: Environment;
  readonly name: string;
  readonly aliases: readonly string[];
  /** Public addresses of the real service (PUBLIC-FACTS.md). */
  readonly publicRestBaseUrl: string;
  readonly publicSoapUrl: string;
}

/** "Two environments exist: production (PROD) and test (CERT, also called sandbox)." */
export const environments: Readonly<Record<Environment, EnvironmentInfo>> = {
  cert: {
    id: 'cert',
    name: 'CERT',
    aliases: ['test', 'sandbox'],
    publicRestBaseUrl: 'https://api.cert.platform.sabre.com',
    publicSoapUrl: 'https://webservices.cert.platform.sabre.com',
  },
  prod: {
    id: 'prod',
    name: 'PROD',
    aliases: ['production'],
    publicRestBaseUrl: 'https://api.platform.sabre.com',
    publicSoapUrl: 'https://webservices.platform.sabre.com',
  },
};

export const ENVIRONMENTS: readonly Environment[] = ['cert', 'prod'];

export function otherEnvironment(env: Environment): Environment {
  return env === 'cert' ? 'prod' : 'cert';
}
