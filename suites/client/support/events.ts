import { parseEnvelope, type ParsedEnvelope } from '../../../harness/soap/index.ts';
import type { SimEvent } from '../../../harness/sim/index.ts';
import { TOKEN_PATH } from '../../../harness/catalog/index.ts';

export const tokenRequests = (events: readonly SimEvent[]) => events.filter((e) => e.protocol === 'rest' && e.path.replace(/\/+$/, '') === TOKEN_PATH);
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
