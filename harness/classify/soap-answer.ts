import type { ParsedEnvelope } from '../soap/index.ts';
import { DEFAULT_FAULT_CODES, STACK_MARKERS, type FaultCodes } from './fault-codes.ts';

/**
 * What a SOAP answer means, classified once for every check: only `refused` says the token or credentials were
 * refused; a fault the harness cannot read (`other-fault`) never counts as a refusal.
 */
export type SoapAnswer =
  | { readonly kind: 'success'; readonly action: string | undefined }
  | { readonly kind: 'refused'; readonly why: 'invalid-token' | 'authentication' | 'not-authorized'; readonly code: string; readonly faultstring: string }
  | { readonly kind: 'pool-full'; readonly code: string; readonly faultstring: string }
  | { readonly kind: 'unknown-action'; readonly code: string; readonly faultstring: string }
  | { readonly kind: 'busy'; readonly code: string; readonly faultstring: string }
  | { readonly kind: 'other-fault'; readonly code: string; readonly faultstring: string }
  | { readonly kind: 'not-soap'; readonly status: number; readonly reason: string };

/** The local part of the faultcode, upper-cased `Client.`/`Server.` left as sent. */
function local(code: string): string {
  const colon = code.indexOf(':');
  return colon < 0 ? code : code.slice(colon + 1);
}

/**
 * Classifies an answer to a SOAP request: an envelope without a fault is `success`; a fault by its code (the
 * document's and the public ones, plus the target's own), else by the service's StackTrace marker; a fault that
 * matches nothing is `other-fault`; an answer that is not a SOAP envelope is `not-soap`.
 */
export function classifySoap(
  answer: { readonly status: number; readonly envelope: Pick<ParsedEnvelope, 'action' | 'fault'> | undefined; readonly parseError?: string | undefined },
  codes: FaultCodes = DEFAULT_FAULT_CODES,
): SoapAnswer {
  const envelope = answer.envelope;
  if (!envelope) return { kind: 'not-soap', status: answer.status, reason: answer.parseError ?? 'not a SOAP envelope' };
  const fault = envelope.fault;
  if (!fault) return { kind: 'success', action: envelope.action };
  const code = local(fault.faultcode);
  const faultstring = fault.faultstring ?? '';
  const has = (list: readonly string[]) => list.some((c) => local(c) === code);
  if (has(codes.invalidToken)) return { kind: 'refused', why: 'invalid-token', code, faultstring };
  if (has(codes.authentication)) return { kind: 'refused', why: 'authentication', code, faultstring };
  if (has(codes.notAuthorized)) return { kind: 'refused', why: 'not-authorized', code, faultstring };
  if (has(codes.poolFull)) return { kind: 'pool-full', code, faultstring };
  if (has(codes.unknownAction)) return { kind: 'unknown-action', code, faultstring };
  if (has(codes.busy)) return { kind: 'busy', code, faultstring };
  const marker = STACK_MARKERS.find((m) => m.marker.test(fault.stackTrace ?? ''));
  if (marker?.kind === 'invalidToken') return { kind: 'refused', why: 'invalid-token', code, faultstring };
  if (marker?.kind === 'authentication') return { kind: 'refused', why: 'authentication', code, faultstring };
  if (marker?.kind === 'poolFull') return { kind: 'pool-full', code, faultstring };
  if (marker?.kind === 'busy') return { kind: 'busy', code, faultstring };
  // No code of a list: a fault saying it does not know the action is read as such (it is never a refusal anyway).
  if (codeNamesAction(code) || /\b(unknown|unsupported|not supported|invalid|no such)\b.{0,40}\baction\b|\baction\b.{0,40}\b(unknown|not supported|not found|invalid)\b/i.test(faultstring)) {
    return { kind: 'unknown-action', code, faultstring };
  }
  return { kind: 'other-fault', code, faultstring };
}

/**
 * Whether a faultcode's local part has "action" as one of its words: split on `.`, `:`, `_`, `-`, blanks and
 * camel-case boundaries (`Client.InvalidAction`, `Client.ACTION_UNKNOWN`), so that `Client.TransactionLimitReached` or
 * `Client.NotAuthorizedForTransaction` (where "action" is only inside a word) are not read as an unknown action.
 */
export function codeNamesAction(code: string): boolean {
  return code
    .split(/[.:_\-\s]+/)
    .flatMap((segment) => segment.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/))
    .some((word) => word.toLowerCase() === 'action');
}

/** A short description of a classified answer, for messages and evidence. */
export function describeSoapAnswer(a: SoapAnswer): string {
  switch (a.kind) {
    case 'success': return `a success${a.action ? ` (${a.action})` : ''}`;
    case 'refused': return `a refusal (${a.code}${a.faultstring ? `: ${a.faultstring.slice(0, 120)}` : ''})`;
    case 'pool-full': return `a pool-full refusal (${a.code})`;
    case 'unknown-action': return `a fault saying the action is unknown (${a.code}${a.faultstring ? `: ${a.faultstring.slice(0, 120)}` : ''})`;
    case 'busy': return `a busy fault (${a.code})`;
    case 'other-fault': return `a fault the harness cannot read as a refusal (${a.code}${a.faultstring ? `: ${a.faultstring.slice(0, 120)}` : ''})`;
    case 'not-soap': return `no SOAP envelope (HTTP ${a.status}: ${a.reason.slice(0, 120)})`;
  }
}
