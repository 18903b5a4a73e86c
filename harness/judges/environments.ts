import type { Environment } from '../catalog/index.ts';
import { problem, type Problem } from './problem.ts';

/**
 * One use of a token: the environment the request went to, the environment that issued the token (`undefined` when
 * not known: nothing to judge), and `what` names the request in messages.
 */
export interface TokenUse {
  readonly calledEnv: Environment;
  readonly tokenEnv: Environment | undefined;
  readonly what: string;
}

/**
 * ENV-02 on one token use: a token from another environment than the one called breaks both clauses — the token the
 * client used there was not requested there, and it sent one environment's token to the other (one deviation, the
 * same words). Both problems, in clause order, or none.
 */
export function env02Problems(use: TokenUse): Problem[] {
  if (use.tokenEnv === undefined || use.tokenEnv === use.calledEnv) return [];
  const to = use.calledEnv.toUpperCase();
  const from = use.tokenEnv.toUpperCase();
  const say = (clause: string) => problem(clause, `the client sent a ${from} token to ${to} (${use.what})`, `a token from ${to}`, `a token from ${from}`);
  return [say('ENV-02.token-from-called-environment'), say('ENV-02.no-cross-environment-token')];
}
