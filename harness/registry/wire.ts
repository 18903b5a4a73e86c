import { ENVIRONMENTS, type Environment } from '../catalog/index.ts';
import type { ProfileFacts } from '../profile/fact-counts.ts';
import type { RegisteredSession, RouteOutcome } from './registry.ts';

/**
 * Where the workers of a run reach the main process's session registry: a loopback HTTP endpoint, and a key made
 * for the run that every request carries (so that no other local process can register or spend anything).
 */
export interface RegistryEndpoint {
  readonly url: string;
  readonly key: string;
}

export const KEY_HEADER = 'x-tds-registry-key';

/** The requests a worker sends, by path. */
export type RegistryRequest =
  | { readonly path: '/reserve'; readonly body: { readonly kind: 'token' | 'session'; readonly root?: boolean } }
  | { readonly path: '/refund'; readonly body: { readonly kind: 'token' | 'session' } }
  | { readonly path: '/route'; readonly body: { readonly key: string } }
  | { readonly path: '/facts'; readonly body: ProfileFacts }
  | { readonly path: '/learned'; readonly body: { readonly key: string; readonly outcome: RouteOutcome } }
  | { readonly path: '/opened'; readonly body: RegisteredSession }
  | { readonly path: '/closed'; readonly body: { readonly token: string } };

const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length < 10_000;

/** Reads a request body; `undefined` when it is not one the registry takes. */
export function readRequest(path: string, body: unknown): RegistryRequest | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  switch (path) {
    case '/reserve':
      return b['kind'] === 'token' || b['kind'] === 'session' ? { path, body: { kind: b['kind'], root: b['root'] === true } } : undefined;
    case '/refund':
      return b['kind'] === 'token' || b['kind'] === 'session' ? { path, body: { kind: b['kind'] } } : undefined;
    case '/route':
      return isString(b['key']) ? { path, body: { key: b['key'] } } : undefined;
    case '/facts':
      return isFacts(b) ? { path, body: b } : undefined;
    case '/learned': {
      const o = b['outcome'] as Record<string, unknown> | null | undefined;
      return isString(b['key']) && typeof o === 'object' && o !== null && (o['kind'] === 'refused' || o['kind'] === 'tokenless') && isString(o['answer'])
        ? { path, body: { key: b['key'], outcome: { kind: o['kind'], answer: o['answer'] } } }
        : undefined;
    }
    case '/opened':
      return ENVIRONMENTS.includes(b['env'] as Environment) && isString(b['token']) && typeof b['conversationId'] === 'string' && typeof b['cpaId'] === 'string'
        ? { path, body: { env: b['env'] as Environment, token: b['token'], conversationId: b['conversationId'], cpaId: b['cpaId'] } }
        : undefined;
    case '/closed':
      return isString(b['token']) ? { path, body: { token: b['token'] } } : undefined;
    default:
      return undefined;
  }
}

/** A worker's profile facts, as `/facts` takes them: counts of strings, token strings, durations. */
function isFacts(b: Record<string, unknown>): b is Record<string, unknown> & ProfileFacts {
  const counts = b['counts'];
  const durations = b['durations'] as Record<string, unknown> | undefined;
  const numbers = (v: unknown) => Array.isArray(v) && v.every((n) => typeof n === 'number');
  return typeof counts === 'object' && counts !== null && Object.values(counts).every((byValue) => typeof byValue === 'object' && byValue !== null && Object.values(byValue).every((n) => typeof n === 'number'))
    && Array.isArray(b['tokens']) && (b['tokens'] as unknown[]).every((t) => typeof t === 'string')
    && typeof durations === 'object' && durations !== null && numbers(durations['token']) && numbers(durations['rest']) && numbers(durations['soap']);
}
