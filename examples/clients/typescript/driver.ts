/**
 * The reference client's stdio driver: the client driver protocol (JSON lines on stdin and stdout) over the
 * in-process adapter. Run it from the repository root:
 *
 *     npx tsx examples/clients/typescript/driver.ts
 *
 * or hand it to the harness: `npx tds-conformance run --suite client --client "npx tsx examples/clients/typescript/driver.ts"`.
 */
import { serveDriver } from '../../../harness/clients/serve-driver.ts';
import { createClient } from './adapter.ts';

const adapter = createClient();

// Stopped from outside: close every open session first (a session left open holds a pool slot until it times out).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    adapter.shutdown().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

await serveDriver(adapter);
// The input ended without a `shutdown` (or after it, when this does nothing): the sessions are closed all the same.
await adapter.shutdown().catch((err: unknown) => {
  process.stderr.write(`shutdown: ${err instanceof Error ? err.message : String(err)}\n`);
});
// Every answer is written; let stdout drain, then end (idle keep-alive connections must not hold the process).
await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
process.exit(0);
