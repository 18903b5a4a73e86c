import { ENVIRONMENTS, type Environment } from '../catalog/index.ts';
import type { SimAccountInput } from './accounts.ts';
import type { AdvanceableClock } from './clock.ts';
import type { SimCore } from './core.ts';

/**
 * The simulator's control endpoint, served under `/__sim/` when asked for (`tds-conformance serve`, the sim target
 * over loopback). Documented in docs/simulator.md ("Control endpoint").
 *
 * - `GET  /__sim/state`               → `{ now, openSessions, tokens, events }`
 * - `POST /__sim/clock/advance`       `{ "seconds": 900 }` → `{ now }` (when the clock can be moved)
 * - `GET  /__sim/events?after=<seq>`  → `{ events: [...] }` (credentials and tokens masked unless `revealSecrets`)
 * - `POST /__sim/accounts`            `{ "env": "cert", "account": { "epr", "pcc", "password", … } }` → `{ ok: true }`
 * - `POST /__sim/tokens/revoke`       `{ "token": "…" }` → `{ revoked: true|false }` (the token is refused from now on)
 */
export const CONTROL_PREFIX = '/__sim';

export interface ControlOptions {
  /** The clock to move, when the simulator's clock can be moved. */
  readonly clock?: AdvanceableClock;
  /** Send raw events (credentials and tokens) to the control client: only for a harness on the same machine. */
  readonly revealSecrets?: boolean;
}

export interface ControlAnswer {
  readonly status: number;
  readonly body: unknown;
}

export function handleControl(core: SimCore, options: ControlOptions, method: string, url: URL, body: string): ControlAnswer {
  const route = `${method} ${url.pathname.slice(CONTROL_PREFIX.length)}`;
  switch (route) {
    case 'GET /state': {
      return { status: 200, body: { now: core.clock.now(), openSessions: core.openSessionCount(), tokens: core.tokens.size, events: core.events.lastSeq } };
    }
    case 'POST /clock/advance': {
      if (!options.clock) return { status: 409, body: { error: 'this simulator\'s clock cannot be moved' } };
      const seconds = Number(parse(body)?.seconds);
      if (!Number.isFinite(seconds) || seconds < 0) return { status: 400, body: { error: 'send {"seconds": <non-negative number>}' } };
      options.clock.advance(seconds);
      return { status: 200, body: { now: core.clock.now() } };
    }
    case 'GET /events': {
      const after = Number(url.searchParams.get('after') ?? 0);
      const events = core.events.since(after).map((e) => (options.revealSecrets ? e : { ...e, headers: maskHeaders(e.headers), body: e.body ? '(body)' : '', ...(e.answer !== undefined && { answer: '(body)' }), tokenUsed: e.tokenUsed && '***', tokenIssued: e.tokenIssued && '***' }));
      return { status: 200, body: { events } };
    }
    case 'POST /accounts': {
      const input = parse(body) as { env?: string; account?: SimAccountInput } | undefined;
      const env = input?.env as Environment;
      if (!ENVIRONMENTS.includes(env) || !input?.account?.epr || !input.account.pcc || typeof input.account.password !== 'string') {
        return { status: 400, body: { error: 'send {"env": "cert"|"prod", "account": {"epr", "pcc", "password", …}}' } };
      }
      core.addAccount(env, input.account);
      return { status: 200, body: { ok: true } };
    }
    case 'POST /tokens/revoke': {
      const token = parse(body)?.token;
      if (typeof token !== 'string') return { status: 400, body: { error: 'send {"token": "<token>"}' } };
      return { status: 200, body: { revoked: core.revokeToken(token) } };
    }
    default:
      return { status: 404, body: { error: `no control route ${route}` } };
  }
}

function parse(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function maskHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k] = k === 'authorization' ? maskAuthorization(v) : v;
  return out;
}

/** Keeps the scheme of `<scheme> <credentials>`; a value with no space after a scheme (`Bearer<token>`) is masked whole. */
function maskAuthorization(value: string): string {
  if (value === '') return value;
  const scheme = /^(\S+)\s/.exec(value)?.[1];
  return scheme ? `${scheme} ***` : '***';
}
