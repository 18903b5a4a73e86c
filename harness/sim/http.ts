import type { Environment } from '../catalog/index.ts';

/** A request as the simulator core sees it: plain data, no streams, no sockets. */
export interface SimRequest {
  readonly env: Environment;
  /** Upper-cased by the adapters only if the client sent it so: the core sees the method as sent. */
  readonly method: string;
  readonly path: string;
  /** The query string without `?`, possibly empty. */
  readonly query: string;
  /** Header names lower-cased; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** The core's answer. `hang` and `drop` exist for defects (a service that never answers, or cuts the line). */
export type SimResponse =
  | { readonly kind: 'response'; readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string }
  | { readonly kind: 'hang' }
  | { readonly kind: 'drop' };

export function json(status: number, value: unknown, contentType = 'application/json;charset=UTF-8'): SimResponse {
  return { kind: 'response', status, headers: { 'content-type': contentType, 'cache-control': 'no-store' }, body: JSON.stringify(value) };
}

export function xml(status: number, body: string): SimResponse {
  return { kind: 'response', status, headers: { 'content-type': 'text/xml;charset=UTF-8' }, body };
}

/**
 * A request's target (origin form `/path?query`, or absolute form) as a URL on `base`, read as a server reads it: the
 * path as sent, so that `//v1/x` is the path `//v1/x` (`new URL(target, base)` reads it as a host `v1`, and throws on
 * `//v2.0.0/x`, whose host looks like a bad IPv4 address); `undefined` for a target no URL can hold.
 */
export function requestTargetUrl(target: string, base: string): URL | undefined {
  try {
    return target.startsWith('/') ? new URL(`${base}${target}`) : new URL(target, base);
  } catch {
    return undefined;
  }
}
