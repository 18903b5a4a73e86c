import { request } from 'node:http';
import type { ProfileFacts } from '../profile/fact-counts.ts';
import type { RegisteredSession, Reservation, RouteOutcome } from './registry.ts';
import { KEY_HEADER, type RegistryEndpoint, type RegistryRequest } from './wire.ts';

/** The main process's session registry could not be reached: the run cannot go on safely against a live target. */
export class RegistryUnreachable extends Error {
  readonly code = 'REGISTRY_UNREACHABLE';
  constructor(cause: unknown) {
    super(`the harness's session registry (in the main process) did not answer: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'RegistryUnreachable';
  }
}

/** A worker's side of the session registry. */
export interface RegistryClient {
  reserve(kind: 'token' | 'session', root?: boolean): Promise<Reservation>;
  refund(kind: 'token' | 'session'): Promise<void>;
  /** Hands the main process what this worker saw of the target's style. */
  facts(facts: ProfileFacts): Promise<void>;
  /** What the run learnt of a route, if anything. */
  route(key: string): Promise<RouteOutcome | undefined>;
  learned(key: string, outcome: RouteOutcome): Promise<void>;
  opened(session: RegisteredSession): Promise<void>;
  closed(token: string): Promise<void>;
}

function post(endpoint: RegistryEndpoint, call: RegistryRequest, timeoutMs: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(call.body);
    const req = request(`${endpoint.url}${call.path}`, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), [KEY_HEADER]: endpoint.key },
      timeout: timeoutMs,
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode}`));
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch (err) {
          reject(err);
        }
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** Talks to the registry at `endpoint`. Each call throws {@link RegistryUnreachable} when it gets no answer. */
export function registryClient(endpoint: RegistryEndpoint, timeoutMs = 10_000): RegistryClient {
  const call = async (c: RegistryRequest): Promise<unknown> => {
    try {
      return await post(endpoint, c, timeoutMs);
    } catch (err) {
      throw new RegistryUnreachable(err);
    }
  };
  return {
    reserve: async (kind, root) => (await call({ path: '/reserve', body: { kind, ...(root && { root }) } })) as Reservation,
    refund: async (kind) => void (await call({ path: '/refund', body: { kind } })),
    facts: async (facts) => void (await call({ path: '/facts', body: facts })),
    route: async (key) => ((await call({ path: '/route', body: { key } })) as { outcome: RouteOutcome | null }).outcome ?? undefined,
    learned: async (key, outcome) => void (await call({ path: '/learned', body: { key, outcome } })),
    opened: async (session) => void (await call({ path: '/opened', body: session })),
    closed: async (token) => void (await call({ path: '/closed', body: { token } })),
  };
}
