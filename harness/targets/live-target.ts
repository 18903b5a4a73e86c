import { readFileSync } from 'node:fs';
import type { Environment } from '../catalog/index.ts';
import { loadTargetConfig, resolveAccount, sessionTimeoutOf, slotReleaseOf, type TargetConfig } from './config.ts';
import { knowledge, type Declarations } from './knowledge.ts';
import { createTransport } from './transport.ts';
import type { Account, Target } from './types.ts';

/** A live environment (CERT, PROD, or any service at the configured addresses). No clock control. */
export function createLiveTarget(config: TargetConfig, options: { readonly requestTimeoutMs?: number; readonly allowOptIn?: boolean } = {}): Target {
  const accounts: Partial<Record<Environment, Account>> = {};
  for (const [env, a] of Object.entries(config.accounts) as [Environment, NonNullable<TargetConfig['accounts'][Environment]>][]) {
    accounts[env] = resolveAccount(a);
  }
  const transport = createTransport({
    timeoutMs: options.requestTimeoutMs ?? config.requestTimeoutMs ?? 15_000,
    useEnvProxy: true,
    ...(config.caFile && { ca: readFileSync(config.caFile, 'utf8') }),
  });
  const a = config.access;
  const declared: Partial<Declarations> = {
    ...(config.tokenKinds && { tokenKinds: config.tokenKinds }),
    ...(a?.otherAgency && { otherAgency: { account: resolveAccount(a.otherAgency.account), agencyApis: a.otherAgency.agencyApis } }),
    ...(a?.portal && { portal: { account: resolveAccount(a.portal.account), publicApis: a.portal.publicApis, otherApis: a.portal.otherApis } }),
    ...(a?.noAmendment && { noAmendment: { account: resolveAccount(a.noAmendment.account), amendmentApis: a.noAmendment.amendmentApis } }),
    ...(a?.certOnly && { certOnly: resolveAccount(a.certOnly) }),
  };
  return {
    ...knowledge({ probes: config.probes, faultCodes: config.faultCodes, declared }),
    name: config.name,
    kind: 'live',
    environments: config.environments,
    accounts,
    sessionPoolSize: config.sessionPoolSize,
    sessionTimeoutSeconds: sessionTimeoutOf(config),
    slotReleaseMs: slotReleaseOf(config),
    allowOptIn: options.allowOptIn ?? config.allowOptIn ?? false,
    transport,
    control: undefined,
    close: () => transport.close(),
  };
}

export function loadLiveTarget(file: string, options: { readonly requestTimeoutMs?: number; readonly allowOptIn?: boolean } = {}): Target {
  return createLiveTarget(loadTargetConfig(file), options);
}
