import { onNewRun } from '../run-scope.ts';
import type { Environment } from '../catalog/index.ts';
import type { Account, SimControl } from '../targets/index.ts';
import { registerPassword } from './secrets.ts';

let made = 0;
onNewRun(() => (made = 0));

/**
 * A fresh account of the simulator, `like` another (its PCC, domains: the same agency), created through `control`:
 * a route to evidence the configured account cannot give (its pool full, its REST credentials refused). Its EPR starts
 * with `tag`; its password is registered as a secret.
 */
export async function freshAccountLike(control: SimControl, env: Environment, like: Account, tag: string): Promise<Account> {
  made++;
  const fresh: Account = { ...like, epr: `${tag.toUpperCase()}${process.pid}X${made}`, password: `${tag.toLowerCase()}-${made}-${process.pid}-secret` };
  registerPassword(fresh.password);
  await control.addAccount(env, fresh);
  return fresh;
}
