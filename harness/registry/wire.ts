import { ENVIRONMENTS, type Environment } from '../catalog/index.ts';
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
