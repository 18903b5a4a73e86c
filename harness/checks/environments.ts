import { ENVIRONMENTS, type Environment } from '../catalog/index.ts';
import { PrerequisiteFailed } from './errors.ts';
import type { CheckContext } from './rule-test.ts';

/**
 * Runs `attempt` in each environment with an account (CERT first) until one has what it needs: an environment whose
 * prerequisite is missing (`PrerequisiteFailed`) is a route tried, not the end. None having it gives one
 * `PrerequisiteFailed` listing what each environment answered, after the rules the first one named.
 */
export async function inSomeEnvironment<T>(ctx: CheckContext, attempt: (env: Environment) => Promise<T>): Promise<T> {
  const envs = environmentsWithAccounts(ctx);
  const missing: PrerequisiteFailed[] = [];
  for (const env of envs) {
    try {
      return await attempt(env);
    } catch (err) {
      if (!(err instanceof PrerequisiteFailed)) throw err;
      missing.push(err);
      if (envs.length > 1) ctx.note(`in ${env.toUpperCase()}: ${err.reason}`);
    }
  }
  throw missingEverywhere(envs, missing);
}

/**
 * Runs `attempt` in every environment with an account (CERT first): a rule that holds in each environment is checked
 * in each ("Check a rule on every exchange where it applies": a blind service broke one in PROD only). An environment
 * whose prerequisite is missing is noted and passed over; none having it fails as {@link inSomeEnvironment} does. On a
 * live target without opt-in rules, whose PROD only they use, the first environment that has what it needs is enough.
 */
export async function inEveryEnvironment(ctx: CheckContext, attempt: (env: Environment) => Promise<void>): Promise<void> {
  const envs = environmentsWithAccounts(ctx);
  const missing: PrerequisiteFailed[] = [];
  for (const [i, env] of envs.entries()) {
    try {
      await attempt(env);
      if (!ctx.target.allowOptIn) {
        for (const rest of envs.slice(i + 1)) ctx.note(`in ${rest.toUpperCase()}: not checked (on a live target only opt-in rules use it: --allow-opt-in)`);
        return;
      }
    } catch (err) {
      if (!(err instanceof PrerequisiteFailed)) throw err;
      missing.push(err);
      if (envs.length > 1) ctx.note(`in ${env.toUpperCase()}: ${err.reason}`);
    }
  }
  if (missing.length === envs.length) throw missingEverywhere(envs, missing);
}

function environmentsWithAccounts(ctx: CheckContext): Environment[] {
  const envs = ENVIRONMENTS.filter((e) => ctx.target.environments[e] && ctx.target.accounts[e]);
  if (envs.length === 0) return ctx.notApplicable('the target has no environment with an account configured');
  return envs;
}

/** The prerequisite missing in every environment: one of the whole target (a probe found once, say) said once. */
function missingEverywhere(envs: readonly Environment[], missing: readonly PrerequisiteFailed[]): PrerequisiteFailed {
  if (missing.every((m) => m === missing[0] || m.reason === missing[0]!.reason)) return missing[0]!;
  return new PrerequisiteFailed(missing.map((m, i) => `in ${envs[i]!.toUpperCase()}: ${m.reason}`).join('; '), [...new Set(missing.flatMap((m) => m.after))]);
}
