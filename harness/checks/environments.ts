import { ENVIRONMENTS, type Environment } from '../catalog/index.ts';
import { PrerequisiteFailed } from './errors.ts';
import type { CheckContext } from './rule-test.ts';

/**
 * Runs `attempt` in each environment with an account (CERT first) until one has what it needs: an environment whose
 * prerequisite is missing (`PrerequisiteFailed`) is a route tried, not the end. None having it gives one
 * `PrerequisiteFailed` listing what each environment answered, after the rules the first one named.
 */
export async function inSomeEnvironment<T>(ctx: CheckContext, attempt: (env: Environment) => Promise<T>): Promise<T> {
  const envs = ENVIRONMENTS.filter((e) => ctx.target.environments[e] && ctx.target.accounts[e]);
  if (envs.length === 0) return ctx.notApplicable('the target has no environment with an account configured');
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
  // One prerequisite of the whole target (a probe found once, say) fails every environment alike: said once.
  if (missing.every((m) => m === missing[0] || m.reason === missing[0]!.reason)) throw missing[0]!;
  throw new PrerequisiteFailed(missing.map((m, i) => `in ${envs[i]!.toUpperCase()}: ${m.reason}`).join('; '), [...new Set(missing.flatMap((m) => m.after))]);
}
