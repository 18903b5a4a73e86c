/**
 * The SOAP envelopes of a recorded exchange, parsed once: as the proxy records the exchange (so that the judge,
 * once the traffic stopped, finds them parsed), or the first time they are asked for (a HAR file). Pure but for the
 * memo, which holds no exchange alive.
 */
import { parseEnvelope, type ParsedEnvelope, type ParseResult } from '../soap/index.ts';
import type { ObservedExchange } from './exchange.ts';

/** A SOAP answer as the judge keeps it: everything but the element tree of its body, which no rule reads. */
export type AnswerEnvelope = Omit<ParsedEnvelope, 'body'>;

export interface ExchangeEnvelopes {
  readonly request: ParseResult;
  /** The answer's envelope, or why it is not one; `undefined` when there was no answer. */
  readonly response: { readonly ok: true; readonly envelope: AnswerEnvelope } | { readonly ok: false; readonly message: string } | undefined;
}

const memo = new WeakMap<ObservedExchange, ExchangeEnvelopes>();
let parses = 0;

/** How many exchanges were parsed so far (tests check that the judge parses each exchange once). */
export const envelopesParsed = (): number => parses;

function answerOf(body: string): ExchangeEnvelopes['response'] {
  const parsed = parseEnvelope(body);
  if (!parsed.ok) return { ok: false, message: parsed.message };
  const { body: _tree, ...envelope } = parsed.envelope;
  return { ok: true, envelope };
}

/** The request and answer envelopes of `x` (a SOAP exchange), parsed the first time they are asked for. */
export function envelopesOf(x: ObservedExchange): ExchangeEnvelopes {
  let e = memo.get(x);
  if (!e) {
    parses++;
    e = { request: parseEnvelope(x.request.body), response: x.response ? answerOf(x.response.body) : undefined };
    memo.set(x, e);
  }
  return e;
}

/** `to` is a copy of `from` (its bodies moved to the spool): its envelopes are those of `from`, parsed or not yet. */
export function sameEnvelopes(from: ObservedExchange, to: ObservedExchange): void {
  const e = memo.get(from);
  if (e) memo.set(to, e);
}
