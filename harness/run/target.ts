/**
 * What `--target` names, loaded and checked before any test starts, and the secrets the main process must keep out
 * of what it writes.
 */
import type { TargetSpec } from '../run-config.ts';
import { Redactor } from '../report/redact.ts';
import { defaultAccounts } from '../sim/default-accounts.ts';
import { parseDefects } from '../sim/defects.ts';
import type { LatitudeProfile } from '../sim/latitude.ts';
import { ConfigError, resolveAccount, type TargetConfig } from '../targets/config.ts';
import { targetConfigFor } from '../targets/presets.ts';
import type { Account } from '../targets/types.ts';

/** Loads and checks what `--target` names, before any test starts. Throws {@link ConfigError}. */
export function resolveTarget(
  target: string,
  defects: readonly string[] = [],
  profile?: LatitudeProfile,
  fileProfiles?: Readonly<Record<string, LatitudeProfile>>,
): { spec: TargetSpec; config?: TargetConfig; accounts: Account[] } {
  if (target === 'sim') {
    parseDefects(defects);
    return { spec: { kind: 'sim', defects, ...(profile && { profile }), ...(fileProfiles && { fileProfiles }) }, accounts: [] };
  }
  if (defects.length) throw new ConfigError('CONFIG_INVALID', `--defect only applies to --target sim (the built-in simulator), not to ${target}.`);
  const config = targetConfigFor(target);
  // Resolve secrets now, so a missing variable is reported before the run starts.
  const accounts = Object.values(config.accounts).flatMap((a) => (a ? [resolveAccount(a)] : []));
  return { spec: { kind: 'live', config }, config, accounts };
}

/** Secrets the main process knows of, registered so that nothing it writes can show them. */
export function redactorFor(spec: TargetSpec, seed: number, accounts: readonly Account[]): Redactor {
  const redactor = new Redactor();
  if (spec.kind === 'sim') {
    const d = defaultAccounts(seed);
    for (const a of [...d.accounts.cert, ...d.accounts.prod]) redactor.addPassword(a.password);
  }
  for (const a of accounts) redactor.addPassword(a.password);
  return redactor;
}
