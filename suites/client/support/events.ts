import { parseEnvelope, type ParsedEnvelope } from '../../../harness/soap/index.ts';
import type { SimEvent } from '../../../harness/sim/index.ts';
import { TOKEN_PATH } from '../../../harness/catalog/index.ts';
import type { RefusedToken, ReuseRequest } from '../../../harness/judges/index.ts';

export const tokenRequests = (events: readonly SimEvent[]) => events.filter((e) => e.protocol === 'rest' && e.path.replace(/\/+$/, '') === TOKEN_PATH);
/** Every REST request but the token requests, whatever the service answered. */
export const restCalls = (events: readonly SimEvent[]) => events.filter((e) => e.protocol === 'rest' && e.path.replace(/\/+$/, '') !== TOKEN_PATH);
export const apiCalls = (events: readonly SimEvent[]) => events.filter((e) => e.protocol === 'rest' && e.outcome.startsWith('api-'));
export const soapRequests = (events: readonly SimEvent[]) => events.filter((e) => e.protocol === 'soap');
export const issued = (events: readonly SimEvent[]) => events.filter((e) => e.tokenIssued !== undefined);

/** A SOAP request event with its parsed envelope (undefined when it did not parse). */
export function envelopes(events: readonly SimEvent[]): { event: SimEvent; envelope: ParsedEnvelope | undefined }[] {
  return soapRequests(events).map((event) => {
    const parsed = parseEnvelope(event.body);
    return { event, envelope: parsed.ok ? parsed.envelope : undefined };
  });
}

/** The environment each token was issued in, by value. */
export function issuingEnvironment(events: readonly SimEvent[]): Map<string, SimEvent['env']> {
  return new Map(issued(events).map((e) => [e.tokenIssued as string, e.env]));
}

/** An event as the judges name it in messages (as `observe` names an exchange). */
export const label = (e: SimEvent) => `#${e.seq} ${e.method} ${e.path}`;

/** The REST tokens issued, in the order they were issued. */
const restIssued = (events: readonly SimEvent[]) => events.filter((e) => e.protocol === 'rest' && e.tokenIssued !== undefined);

/**
 * A driven client's token request with the newest REST token it held when it sent it (API-04's facts): the calls are
 * sequential, so the events before the request are what the client had seen; times are the simulator's clock. The
 * token held is the one of the request's environment: a token for CERT is no reason not to ask PROD for one (a client
 * may log in to each environment it is configured for, ahead of its calls, as `observe` keys a client by environment).
 */
export function reuseRequest(events: readonly SimEvent[], request: SimEvent, lifetimeSeconds: number): ReuseRequest {
  const before = events.filter((e) => e.seq < request.seq);
  const from = restIssued(before).filter((e) => e.env === request.env).at(-1);
  const token = from?.tokenIssued;
  const uses = before.filter((e) => e.tokenUsed !== undefined && e.tokenUsed === token);
  const refused = uses.find((e) => e.outcome === 'api-refused-token');
  return {
    at: label(request),
    sentAt: request.at,
    held: from && { obtainedAt: `#${from.seq}`, issuedAt: from.at, expiresIn: lifetimeSeconds, endedAt: refused?.at, uses: uses.length },
  };
}

/** The REST tokens the service refused, each with the requests that sent it again after its first refusal (LIFE-03's facts). */
export function refusedTokens(events: readonly SimEvent[]): RefusedToken[] {
  const out: RefusedToken[] = [];
  const seen = new Set<string>();
  for (const e of events) {
    if (e.protocol !== 'rest' || e.outcome !== 'api-refused-token' || e.tokenUsed === undefined || seen.has(e.tokenUsed)) continue;
    seen.add(e.tokenUsed);
    out.push({ first: label(e), resent: events.filter((x) => x.seq > e.seq && x.tokenUsed === e.tokenUsed).map(label) });
  }
  return out;
}

/**
 * Whether a sessionless token was issued after the event `after` (a new token obtained once the old one ended): by the
 * REST token endpoint or by TokenCreateRQ, either of which gives a token both protocols take ("and the reverse").
 */
export const issuedAfter = (events: readonly SimEvent[], after: number) =>
  events.some((e) => e.seq > after && e.tokenIssued !== undefined && (e.protocol === 'rest' || e.action === 'TokenCreateRQ'));
