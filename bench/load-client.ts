/**
 * A bounded HTTP load generator (undici), run as a child process so that the server under test has the parent's event
 * loop to itself. Loopback only: it refuses any host other than 127.0.0.1, ::1 or localhost.
 *
 *   npx tsx bench/load-client.ts '<json of LoadSpec>'   → prints one line of JSON (LoadResult)
 */
import { Pool } from 'undici';
import { isMain } from './util.ts';

export interface LoadSpec {
  readonly url: string;
  readonly method: 'POST' | 'GET';
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Requests in flight at once (one connection each). */
  readonly concurrency: number;
  /** Stop after this many requests... */
  readonly maxRequests: number;
  /** ...or after this long (ms), whichever comes first. */
  readonly maxDurationMs: number;
  /** Requests sent first and not counted (connections opened, JIT warmed). */
  readonly warmupRequests: number;
}

export interface LoadResult {
  readonly requests: number;
  readonly elapsedMs: number;
  readonly perSecond: number;
  /** Count of answers per HTTP status. */
  readonly statuses: Readonly<Record<string, number>>;
  readonly errors: number;
  /** Latency percentiles in ms. */
  readonly p50Ms: number;
  readonly p99Ms: number;
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

export async function generateLoad(spec: LoadSpec): Promise<LoadResult> {
  const url = new URL(spec.url);
  if (!LOOPBACK.has(url.hostname)) throw new Error(`load-client: loopback only, not ${url.hostname}`);
  const pool = new Pool(url.origin, { connections: spec.concurrency, pipelining: 1, keepAliveTimeout: 10_000 });
  const path = `${url.pathname}${url.search}`;
  const statuses: Record<string, number> = {};
  let errors = 0;
  const once = async (): Promise<void> => {
    try {
      const res = await pool.request({ path, method: spec.method, headers: spec.headers, body: spec.body ?? null });
      await res.body.text();
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    } catch {
      errors++;
    }
  };
  try {
    let warm = 0;
    await Promise.all(Array.from({ length: spec.concurrency }, async () => {
      while (warm++ < spec.warmupRequests) await once();
    }));
    for (const key of Object.keys(statuses)) delete statuses[key];
    errors = 0;

    const latencies: number[] = [];
    let sent = 0;
    const started = performance.now();
    const deadline = started + spec.maxDurationMs;
    await Promise.all(Array.from({ length: spec.concurrency }, async () => {
      while (sent < spec.maxRequests && performance.now() < deadline) {
        sent++;
        const t = performance.now();
        await once();
        latencies.push(performance.now() - t);
      }
    }));
    const elapsedMs = performance.now() - started;
    latencies.sort((a, b) => a - b);
    const pick = (q: number): number => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
    return { requests: latencies.length, elapsedMs, perSecond: (latencies.length / elapsedMs) * 1000, statuses, errors, p50Ms: pick(0.5), p99Ms: pick(0.99) };
  } finally {
    await pool.close();
  }
}

if (isMain(import.meta.url)) {
  const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;
  process.stdout.write(`${JSON.stringify(await generateLoad(spec))}\n`);
}
