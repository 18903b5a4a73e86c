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

/**
 * The request and answer envelopes of `x` (a SOAP exchange), parsed the first time they are asked for (`request`:
 * its request parsed already, by the proxy before it forwarded it).
 */
export function envelopesOf(x: ObservedExchange, request?: ParseResult): ExchangeEnvelopes {
  let e = memo.get(x);
  if (!e) {
    parses++;
    e = { request: request ?? parseEnvelope(x.request.body), response: x.response ? answerOf(x.response.body) : undefined };
    memo.set(x, e);
  }
  return e;
}

/** Strings up to this length are shared between the envelopes of an observation (names, namespaces, codes, IDs). */
const SHARED_MAX_LENGTH = 64;
/** The most strings the sharing remembers: the recurring ones come back at once after it forgot them all. */
const SHARED_KEPT = 4_096;

/**
 * A deep copy of plain data (objects, arrays, maps) whose strings are fresh (the parser's strings are slices of the
 * body it read, and a slice keeps the whole body in memory) and, up to {@link SHARED_MAX_LENGTH}, shared through
 * `strings` (the same names, namespaces and values recur in every envelope of an observation).
 */
export function compact<T>(value: T, strings: Map<string, string>, seen = new Map<object, unknown>()): T {
  if (typeof value === 'string') {
    const known = value.length <= SHARED_MAX_LENGTH ? strings.get(value) : undefined;
    if (known !== undefined) return known as T;
    // A copy made of the characters (not a slice of the text it came from).
    const fresh = value.split('').join('');
    if (value.length <= SHARED_MAX_LENGTH) {
      // A cache, not a registry: the IDs and timestamps of each envelope are met once, and would pile up.
      if (strings.size >= SHARED_KEPT) strings.clear();
      strings.set(fresh, fresh);
    }
    return fresh as T;
  }
  if (value === null || typeof value !== 'object') return value;
  const done = seen.get(value);
  if (done !== undefined) return done as T;
  if (Array.isArray(value)) {
    const out = value.map((item: unknown) => compact(item, strings, seen));
    seen.set(value, out);
    return out as T;
  }
  if (value instanceof Map) {
    const out = new Map<unknown, unknown>();
    seen.set(value, out);
    for (const [k, v] of value) out.set(compact(k, strings, seen), compact(v, strings, seen));
    return out as T;
  }
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const [k, v] of Object.entries(value)) out[k] = compact(v, strings, seen);
  return out as T;
}

/**
 * `to` is a copy of `from` whose bodies went to the spool: its envelopes are those of `from`, {@link compact}ed with
 * the observation's shared `strings`.
 */
export function sameEnvelopes(from: ObservedExchange, to: ObservedExchange, strings: Map<string, string>): void {
  const e = memo.get(from);
  if (e) memo.set(to, compact({ ...e, request: leanRequest(e.request) }, strings));
}

/** `to` is a copy of `from` read at once and dropped (the running judge's): its envelopes are those of `from`, as parsed. */
export function shareEnvelopes(from: ObservedExchange, to: ObservedExchange): void {
  const e = memo.get(from);
  if (e) memo.set(to, e);
}

const NO_SCOPE: ReadonlyMap<string, string> = new Map();

/**
 * A request envelope as an observation keeps it: its body's payload element without the tree under it (no rule reads
 * it: SOAP-04 and SESS-05 read the payload's name, SOAP-03 the manifest), but for a SessionCloseRQ, whose payload
 * SESS-05.body reads whole. The text, when a rule needs it (the schema, evidence), is read back from the spool.
 */
export function leanRequest(parsed: ParseResult): ParseResult {
  if (!parsed.ok) return parsed;
  const { body } = parsed.envelope;
  const root = body.root;
  if (root?.localName === 'SessionCloseRQ') return { ok: true, envelope: { ...parsed.envelope, body: { root, manifest: body.manifest, elements: [root] } } };
  const name = root && { ...root, attributes: [], children: [], text: '', inScope: NO_SCOPE };
  return { ok: true, envelope: { ...parsed.envelope, body: { root: name, manifest: body.manifest, elements: name ? [name] : [] } } };
}
