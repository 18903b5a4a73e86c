// The stdio side of the driver protocol (docs/driver-protocol.md) for drivers written in plain JavaScript: one JSON
// request per stdin line, one JSON answer per stdout line, requests handled concurrently, answers written whole.
// A driver gives `serve` one handler per op; a handler returns the op's result or throws a `DriverError`.
//
// Plain ESM with no dependency, so that a driver starts with `node driver.mjs` in well under a second (the harness
// starts a fresh driver for every check).
import { createInterface } from 'node:readline';

/** An op that failed, answered as {"ok": false, "error": {kind, message, code?, description?, status?}}. */
export class DriverError extends Error {
  /**
   * @param {'auth' | 'transport' | 'protocol' | 'unsupported'} kind
   * @param {string} [message] optional for `unsupported`
   * @param {{ code?: string, description?: string, status?: number }} [service] what the service said, unchanged
   */
  constructor(kind, message, service = {}) {
    super(message ?? '');
    this.kind = kind;
    this.service = service;
  }

  toJSON() {
    const { code, description, status } = this.service;
    return {
      kind: this.kind,
      ...(this.message && { message: this.message }),
      ...(code !== undefined && { code }),
      ...(description !== undefined && { description }),
      ...(status !== undefined && { status }),
    };
  }
}

/**
 * Serves the protocol on stdin/stdout until `shutdown` (or the end of stdin), then exits 0.
 * @param {Record<string, (request: any) => Promise<unknown>>} handlers one per op; a missing op is `unsupported`
 */
export function serve(handlers) {
  const answer = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
  const pending = new Set();
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on('line', (line) => {
    if (!line.trim()) return;
    let request;
    try {
      request = JSON.parse(line);
    } catch {
      answer({ id: -1, ok: false, error: { kind: 'protocol', message: 'the request line is not JSON' } });
      return;
    }
    const handler = handlers[request.op];
    // `message` may be left out of an `unsupported` answer.
    if (!handler) return answer({ id: request.id, ok: false, error: { kind: 'unsupported' } });
    const task = Promise.resolve()
      .then(() => handler(request))
      .then(
        (result) => answer({ id: request.id, ok: true, result: result ?? {} }),
        (err) => answer({ id: request.id, ok: false, error: err instanceof DriverError ? err.toJSON() : { kind: 'protocol', message: String(err?.message ?? err) } }),
      )
      .finally(() => pending.delete(task));
    pending.add(task);
    if (request.op === 'shutdown') {
      lines.close();
      Promise.allSettled([...pending]).then(() => process.exit(0));
    }
  });
  lines.on('close', () => {
    Promise.allSettled([...pending]).then(() => process.exit(0));
  });
}

/** The REST Client ID of the interface document: V1:<userid>:<group>:<domain>, domain `AA` when none is configured. */
export const clientIdOf = (credentials) => `V1:${credentials.epr}:${credentials.pcc}:${credentials.restDomain ?? 'AA'}`;

/** The environment of a request, or a protocol error when it was not configured. */
export function environmentOf(environments, name) {
  const env = environments?.[name];
  if (!env) throw new DriverError('protocol', `environment "${name}" is not configured`);
  return env;
}

/** A response body as the protocol returns it: JSON when it is JSON, else the text, `null` when empty. */
export function bodyOf(text) {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
