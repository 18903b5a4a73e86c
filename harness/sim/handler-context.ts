import type { LatitudeProfile } from './latitude.ts';
import type { Random } from './random.ts';
import type { RestContext } from './rest.ts';

/**
 * What a request handler needs of the simulator: its random source, its latitude profile and the per-request REST
 * context (time, defects, tokens, accounts). `SimCore` provides it; the handlers take it, so that neither module
 * imports the other.
 */
export interface HandlerContext {
  readonly random: Random;
  /** The source of token values (`SimOptions.tokenSalt`). */
  readonly tokenRandom: Random;
  readonly profile: LatitudeProfile;
  restContext(): RestContext;
}
