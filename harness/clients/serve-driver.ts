import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { ClientError, DRIVER_OPS, type ClientAdapter, type DriverAnswer, type DriverError, type DriverRequest } from './protocol.ts';

function toDriverError(err: unknown): DriverError {
  if (err instanceof ClientError) return err.toJSON();
  return { kind: 'protocol', message: err instanceof Error ? err.message : String(err) };
}

async function dispatch(adapter: ClientAdapter, request: DriverRequest): Promise<unknown> {
  switch (request.op) {
    case 'configure': {
      const { op: _op, ...rest } = request;
      await adapter.configure(rest);
      return {};
    }
    case 'rest.call':
      return adapter.restCall({ environment: request.environment, method: request.method, path: request.path, ...(request.body !== undefined && { body: request.body }) });
    case 'soap.call':
      return adapter.soapCall({ environment: request.environment, action: request.action });
    case 'soap.session.open':
      return adapter.openSession({ environment: request.environment });
    case 'soap.session.call':
      return adapter.sessionCall({ session: request.session, action: request.action });
    case 'soap.session.close':
      await adapter.closeSession({ session: request.session });
      return {};
    case 'shutdown':
      await adapter.shutdown();
      return {};
  }
}

/**
 * Serves the driver protocol over a pair of streams for an in-process adapter: what a TypeScript client's stdio
 * driver needs (`serveDriver(createClient())`). Requests run concurrently; each answer is one JSON line. Resolves after
 * `shutdown` has been answered, or when the input ends.
 */
export async function serveDriver(adapter: ClientAdapter, input: Readable = process.stdin, output: Writable = process.stdout): Promise<void> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  const pending = new Set<Promise<void>>();
  const answer = (a: DriverAnswer) => {
    output.write(`${JSON.stringify(a)}\n`);
  };
  for await (const line of lines) {
    if (!line.trim()) continue;
    let request: DriverRequest & { id: number };
    try {
      request = JSON.parse(line) as DriverRequest & { id: number };
    } catch {
      answer({ id: -1, ok: false, error: { kind: 'protocol', message: 'the request line is not JSON' } });
      continue;
    }
    if (!DRIVER_OPS.includes(request.op)) {
      answer({ id: request.id, ok: false, error: { kind: 'unsupported', message: `unknown op "${String(request.op)}"` } });
      continue;
    }
    const task = dispatch(adapter, request).then(
      (result) => answer({ id: request.id, ok: true, result }),
      (err: unknown) => answer({ id: request.id, ok: false, error: toDriverError(err) }),
    );
    const tracked = task.finally(() => pending.delete(tracked));
    pending.add(tracked);
    if (request.op === 'shutdown') {
      await Promise.all(pending);
      break;
    }
  }
  await Promise.all(pending);
  lines.close();
}
