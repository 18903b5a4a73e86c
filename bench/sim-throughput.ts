/**
 * Simulator throughput over loopback: `POST /v2/auth/token` answered by the simulator (`startSimServer` over a
 * `SimCore`), next to a plain `node:http` server that answers every request with the same token JSON. Both run in
 * this process; the load comes from a child process (bench/load-client.ts, undici) with the same concurrency, count
 * bound and duration bound for both. Rounds alternate between the servers; the best round of each is compared.
 *
 *   npx tsx bench/sim-throughput.ts [--concurrency 16] [--duration-ms 3000] [--max-requests 100000] [--rounds 2]
 */
import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs, promisify } from 'node:util';
import { basicAuthorization, clientIdFor } from '../harness/credentials/index.ts';
import { defaultAccounts, ManualClock, SimCore, startSimServer } from '../harness/sim/index.ts';
import { FORM_CONTENT_TYPE, GRANT_TYPE, TOKEN_PATH } from '../harness/catalog/index.ts';
import type { LoadResult, LoadSpec } from './load-client.ts';
import { fmt, isMain, ROOT, tsxArgs } from './util.ts';

const run = promisify(execFile);

export interface ThroughputOptions {
  readonly concurrency?: number;
  readonly durationMs?: number;
  readonly maxRequests?: number;
  readonly rounds?: number;
  readonly log?: (line: string) => void;
}

/** One round against one server: the load generator's figures and the server process's CPU per request. */
export interface RoundResult extends LoadResult {
  /** CPU time of this process (the server) per request, in µs, warm-up requests included. */
  readonly serverCpuUsPerRequest: number;
}

export interface ThroughputResult {
  readonly concurrency: number;
  /** The best round (requests per second) of each server, with the least server CPU per request of its rounds. */
  readonly plain: RoundResult;
  readonly sim: RoundResult;
  /** sim / plain requests per second (best rounds). */
  readonly ratio: number;
  /** Each round's pair (the two servers loaded one after the other, the order alternating), and its ratio sim/plain. */
  readonly pairs: readonly { readonly plain: number; readonly sim: number; readonly ratio: number }[];
  /** Medians of the rounds: requests per second of each, and the median of the pairs' ratios. */
  readonly median: { readonly plain: number; readonly sim: number; readonly ratio: number };
  /** plain / sim server CPU per request (least of the rounds): the same comparison, less sensitive to other load. */
  readonly cpuRatio: number;
  /** Tokens the simulator holds at the end (every 200 answer issued one). */
  readonly simTokens: number;
}

async function load(spec: LoadSpec): Promise<LoadResult> {
  const { stdout } = await run(process.execPath, tsxArgs('bench/load-client.ts', JSON.stringify(spec)), { cwd: ROOT, maxBuffer: 1 << 20 });
  return JSON.parse(stdout) as LoadResult;
}

/**
 * A plain node:http server answering every request with the token JSON the simulator gives, with the same headers
 * (a fixed token: no store, no log, no credential check).
 */
async function startPlainServer(): Promise<{ url: string; close(): Promise<void> }> {
  const body = JSON.stringify({ access_token: `T1RLAQ${'A'.repeat(118)}*`, token_type: 'bearer', expires_in: 604_800 });
  const headers = { 'content-type': 'application/json;charset=UTF-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.on('data', () => undefined);
    req.on('end', () => {
      res.writeHead(200, headers).end(body);
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${TOKEN_PATH}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export async function measureSimThroughput(options: ThroughputOptions = {}): Promise<ThroughputResult> {
  const concurrency = options.concurrency ?? 16;
  const rounds = options.rounds ?? 2;
  const log = options.log ?? (() => undefined);
  const accounts = defaultAccounts(42);
  const core = new SimCore({ clock: new ManualClock(), accounts: accounts.accounts, seed: 42 });
  const sim = await startSimServer(core);
  const plain = await startPlainServer();
  const request = {
    method: 'POST' as const,
    headers: { 'content-type': FORM_CONTENT_TYPE, authorization: basicAuthorization({ ...clientIdFor(accounts.main.cert), password: accounts.main.cert.password }) },
    body: `grant_type=${GRANT_TYPE}`,
    concurrency,
    maxRequests: options.maxRequests ?? 100_000,
    maxDurationMs: options.durationMs ?? 3_000,
    warmupRequests: 500,
  };
  try {
    let best: { plain?: RoundResult; sim?: RoundResult } = {};
    const leastCpu = { plain: Infinity, sim: Infinity };
    const pairs: { plain: number; sim: number; ratio: number }[] = [];
    const servers = [['plain', plain.url], ['sim', `${sim.urls.cert.restBaseUrl}${TOKEN_PATH}`]] as const;
    for (let round = 1; round <= rounds; round++) {
      const pair = { plain: 0, sim: 0 };
      // A/B, then B/A: neither server always runs first (on a warmer or quieter machine).
      for (const [name, url] of round % 2 === 1 ? servers : [...servers].reverse()) {
        const cpu = process.cpuUsage();
        const loaded = await load({ ...request, url });
        const used = process.cpuUsage(cpu);
        const result: RoundResult = { ...loaded, serverCpuUsPerRequest: (used.user + used.system) / (loaded.requests + request.warmupRequests) };
        const ok = result.statuses['200'] ?? 0;
        if (ok !== result.requests || result.errors > 0) {
          throw new Error(`${name} server: ${ok} of ${result.requests} requests answered 200 (${JSON.stringify(result.statuses)}, ${result.errors} errors)`);
        }
        log(`  round ${round} ${name.padEnd(5)} ${fmt.int(result.perSecond).padStart(7)} req/s  (${fmt.int(result.requests)} requests in ${fmt.s(result.elapsedMs)}, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms; server CPU ${result.serverCpuUsPerRequest.toFixed(1)} µs/request)`);
        if (!best[name] || result.perSecond > (best[name]?.perSecond ?? 0)) best = { ...best, [name]: result };
        leastCpu[name] = Math.min(leastCpu[name], result.serverCpuUsPerRequest);
        pair[name] = result.perSecond;
      }
      pairs.push({ ...pair, ratio: pair.sim / pair.plain });
    }
    const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? 0;
    const b = best as { plain: RoundResult; sim: RoundResult };
    return {
      concurrency,
      plain: { ...b.plain, serverCpuUsPerRequest: leastCpu.plain },
      sim: { ...b.sim, serverCpuUsPerRequest: leastCpu.sim },
      ratio: b.sim.perSecond / b.plain.perSecond,
      cpuRatio: leastCpu.plain / leastCpu.sim,
      pairs,
      median: { plain: median(pairs.map((p) => p.plain)), sim: median(pairs.map((p) => p.sim)), ratio: median(pairs.map((p) => p.ratio)) },
      simTokens: core.tokens.size,
    };
  } finally {
    await sim.close();
    await plain.close();
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      concurrency: { type: 'string', default: '16' },
      'duration-ms': { type: 'string', default: '3000' },
      'max-requests': { type: 'string', default: '100000' },
      rounds: { type: 'string', default: '2' },
    },
  });
  const r = await measureSimThroughput({
    concurrency: Number(values.concurrency),
    durationMs: Number(values['duration-ms']),
    maxRequests: Number(values['max-requests']),
    rounds: Number(values.rounds),
    log: console.log,
  });
  console.log(`\nplain node:http ${fmt.int(r.plain.perSecond)} req/s, simulator ${fmt.int(r.sim.perSecond)} req/s: ratio ${r.ratio.toFixed(2)} (concurrency ${r.concurrency}); server CPU per request ratio ${r.cpuRatio.toFixed(2)}`);
}
