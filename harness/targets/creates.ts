/**
 * What a request would create on the service, judged from the request alone: a token (`POST /v2/auth/token`,
 * `TokenCreateRQ`), a session (`SessionCreateRQ`), or nothing. What the budget counts, and what the transport must not
 * send twice on its own (a second send may create a second one).
 */
export function creates(req: { readonly method: string; readonly url: string; readonly body?: string | undefined }): 'token' | 'session' | undefined {
  if (req.method === 'POST' && /\/v2\/auth\/token\/?$/.test(new URL(req.url).pathname)) return 'token';
  if (req.method === 'POST' && req.body) {
    const action = /<(?:[\w-]+:)?Action>\s*([\w.]+)\s*</.exec(req.body)?.[1];
    if (action === 'TokenCreateRQ') return 'token';
    if (action === 'SessionCreateRQ') return 'session';
  }
  return undefined;
}
