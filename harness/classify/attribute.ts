/**
 * Attribution by difference: what a refusal refused. A request the service did not serve is compared with a control —
 * the same request with one factor changed — that it did serve; the refusal is then a refusal of that factor,
 * whatever its status or error code (RFC 6750's 400 `invalid_request` for a token the API does not take, a fault the
 * harness cannot read, …). Pure: the checks send the requests (harness/checks/attribution.ts), this decides.
 */

/** What may differ between a request and its control. */
export type Factor = 'token' | 'credentials' | 'form' | 'environment' | 'account' | 'header' | 'action' | 'protocol';

/** An answer, classified once (harness/classify), reduced to what attribution needs. */
export interface Observed {
  /** `served`: a success; `refused`: a refusal by the classification (401/403, an auth fault); `other`: anything else. */
  readonly outcome: 'served' | 'refused' | 'other';
  /**
   * The answer says nothing about any request, however it differs (rate limiting, a busy service, a server error
   * that did not come back when the request was sent again, no answer): it is never attributed, even against a
   * control that was served.
   */
  readonly transient?: boolean;
  /** One line: the request and what came back (`GET /v1/… → 400 invalid_request`), for the check's message. */
  readonly line: string;
}

/** The verdict on an answer, possibly by difference from a control. */
export type Attribution =
  | { readonly kind: 'served' }
  | { readonly kind: 'refused'; readonly by: 'answer' }
  | { readonly kind: 'refused'; readonly by: 'difference'; readonly factor: Factor; readonly because: string }
  | { readonly kind: 'unknown'; readonly why: string };

/**
 * The verdict on `trial`: served or refused as classified; otherwise, when a control that differs from it in
 * `factor` alone was served (and, if given, served again after the trial — so the service was well all along), the
 * trial was refused for that factor. Anything else is unknown, with the reason.
 */
export function attribute(trial: Observed, factor: Factor, controls: readonly Observed[] = []): Attribution {
  if (trial.outcome === 'served') return { kind: 'served' };
  if (trial.outcome === 'refused') return { kind: 'refused', by: 'answer' };
  if (trial.transient) return { kind: 'unknown', why: `${trial.line}: an answer that says nothing about the request` };
  if (controls.length === 0) return { kind: 'unknown', why: `${trial.line}: neither served nor refused, and no control differing only in the ${factor} was sent` };
  const unserved = controls.find((c) => c.outcome !== 'served');
  if (unserved) return { kind: 'unknown', why: `${trial.line}; the control differing only in the ${factor} was not served either (${unserved.line})` };
  const shown = controls.map((c) => c.line).join('; ');
  return {
    kind: 'refused',
    by: 'difference',
    factor,
    because: `${trial.line}, while the same request with another ${factor} was served (${shown}): the two differ in the ${factor} alone, so the ${factor} was refused`,
  };
}

/** One line for a message: how a refusal was established. */
export function describeAttribution(a: Attribution): string {
  switch (a.kind) {
    case 'served': return 'served';
    case 'refused': return a.by === 'answer' ? 'refused' : `refused (by difference: ${a.because})`;
    case 'unknown': return `unknown (${a.why})`;
  }
}
