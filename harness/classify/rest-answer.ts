/**
 * What an answer of a published REST API means, classified once for every check. Only `refused` (401) and
 * `forbidden` (403) say the token (or its holder) was refused; a 404, a 400 for a payload the harness cannot know,
 * a 429 or a 5xx say nothing about the token.
 */
export type RestAnswer =
  | { readonly kind: 'success'; readonly status: number }
  | { readonly kind: 'refused'; readonly status: 401 }
  | { readonly kind: 'forbidden'; readonly status: 403 }
  | { readonly kind: 'not-found'; readonly status: number }
  | { readonly kind: 'rate-limited'; readonly status: 429 }
  | { readonly kind: 'rejected'; readonly status: number }
  | { readonly kind: 'server-error'; readonly status: number }
  | { readonly kind: 'unexpected'; readonly status: number };

export function classifyRest(status: number): RestAnswer {
  if (status >= 200 && status < 300) return { kind: 'success', status };
  if (status === 401) return { kind: 'refused', status };
  if (status === 403) return { kind: 'forbidden', status };
  if (status === 404 || status === 405) return { kind: 'not-found', status };
  if (status === 429) return { kind: 'rate-limited', status };
  if (status >= 400 && status < 500) return { kind: 'rejected', status };
  if (status >= 500) return { kind: 'server-error', status };
  return { kind: 'unexpected', status };
}

/** The token was refused: 401, or 403 (the holder may not call this API). */
export function isTokenRefusal(a: RestAnswer): boolean {
  return a.kind === 'refused' || a.kind === 'forbidden';
}

export function describeRestAnswer(a: RestAnswer): string {
  switch (a.kind) {
    case 'success': return `a success (HTTP ${a.status})`;
    case 'refused': return 'a refusal (HTTP 401)';
    case 'forbidden': return 'a refusal (HTTP 403, not authorized)';
    case 'not-found': return `HTTP ${a.status}: the service has no such API (or method) at that path`;
    case 'rate-limited': return 'HTTP 429: rate limited';
    case 'rejected': return `HTTP ${a.status}: the request was rejected for a reason other than the token`;
    case 'server-error': return `HTTP ${a.status}: a server error`;
    case 'unexpected': return `HTTP ${a.status}`;
  }
}
