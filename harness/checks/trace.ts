/**
 * Traceable requests: every request the harness sends to a target carries a correlation header naming the run, the
 * rule and the check (`X-Conformance-Check: run=r5f2c9a1; rule=REST-03; check=c0d1e2f3; id=r5f2c9a1-c0d1e2f3-7`),
 * so that a QA engineer can hand the service's team the IDs of the requests behind a verdict and the team can find
 * them in their logs. Like Schemathesis's test-case ID header and the connect conformance runner's test-case header.
 *
 * - The correlation ID is `<run>-<check>-<n>`: the check's requests are `<run>-<check>-1` … in the order sent, so a
 *   search for `<run>-<check>-` finds them all, and `<run>-` the whole run.
 * - `<check>` is 8 hex digits of a hash of the check's full title: the same check has the same ID in every run.
 *   Requests outside any check (the sessions a file left open, closed after it) are `x` + a hash of the file.
 * - The header's name is configurable and the header can be switched off (`correlationHeader` in a target config,
 *   `--correlation-header <name>` / `--no-correlation-header`) for a service that refuses unknown headers; the IDs
 *   are then still recorded in the report and the HAR.
 *
 * Each request is recorded (method, path, status, time) for the report, and, when the run writes a HAR file, as a
 * HAR entry redacted by value in this worker (see `harness/har/run-traffic.ts`).
 */
import { createHash } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { harEntry, type TaggedHarEntry } from '../har/har.ts';
import type { CheckTrace, TracedRequest } from '../report/meta.ts';
import type { HttpRequest, HttpResponse, Transport } from '../targets/index.ts';
import { registerTokensIn } from './evidence.ts';
import { redact } from './secrets.ts';
import { redactedJson } from '../report/redact.ts';
import type { TraceConfig } from './trace-config.ts';

export { CORRELATION_HEADER, newRunId, type TraceConfig } from './trace-config.ts';

/** The 8-hex-digit ID of a check, from its full title (the same in every run). */
export function checkIdFor(title: string): string {
  return createHash('sha256').update(title).digest('hex').slice(0, 8);
}

/** What the report keeps of a check's requests: the last ones before the verdict, with their IDs and times. */
const KEEP = 8;

interface CheckScope {
  readonly rules: readonly string[];
  readonly title: string;
  readonly id: string;
  seq: number;
  /** When the first request was sent, ms since the epoch (the last ones are in `last`). */
  firstAt?: number;
  readonly last: Sent[];
}

/**
 * A request as recorded while the check runs: its time and URL as they are, made the report's ISO time and path only
 * for the few the report shows, when the check ends.
 */
interface Sent {
  readonly id: string;
  readonly startedAt: number;
  readonly method: string;
  readonly url: string;
  readonly status?: number;
  readonly durationMs?: number;
  readonly error?: string;
}

let scope: CheckScope | undefined;
let fileScope: CheckScope | undefined;

/** Starts recording the requests of a check (one at a time per worker: a file's checks run one after the other). */
export function beginCheck(rules: readonly string[], title: string): void {
  scope = { rules, title, id: checkIdFor(title), seq: 0, last: [] };
}

/** The rules of the check running now in this worker (none outside a check). */
export function currentRules(): readonly string[] {
  return scope?.rules ?? [];
}

/** Ends the check's recording and returns what the report shows of it (`undefined` when it sent nothing). */
export function endCheck(): CheckTrace | undefined {
  const s = scope;
  scope = undefined;
  if (!s || s.seq === 0) return undefined;
  // Redacted here, the last few only (not every request as it is sent: the secrets grow with the tokens issued).
  const requests = s.last.map((r): TracedRequest => ({
    id: r.id, at: isoTime(r.startedAt), method: r.method, path: redact(pathOf(r.url)),
    ...(r.status !== undefined && { status: r.status }), ...(r.durationMs !== undefined && { durationMs: r.durationMs }),
    ...(r.error !== undefined && { error: redact(r.error) }),
  }));
  const lastAt = requests.at(-1)?.at;
  return { checkId: s.id, count: s.seq, ...(s.firstAt !== undefined && { firstAt: isoTime(s.firstAt) }), ...(lastAt && { lastAt }), requests };
}

/** The scope of requests sent outside any check: those of the test file (`x` + a hash of its path). */
export function setFileScope(file: string | undefined): void {
  fileScope = file === undefined ? undefined : { rules: [], title: file, id: `x${checkIdFor(file).slice(1)}`, seq: 0, last: [] };
}

const pending: string[] = [];
let harFile: string | undefined;

/** Writes the HAR entries recorded so far to this worker's file (at the end of each test file, and every 200 entries). */
export function flushTraffic(): void {
  if (pending.length === 0 || harFile === undefined) return;
  const lines = `${pending.join('\n')}\n`;
  pending.length = 0;
  appendFileSync(harFile, lines, 'utf8');
}

/** Adds the correlation header, records the request for the report and, when asked, for the run's HAR. */
export function tracingTransport(inner: Transport, config: TraceConfig): Transport {
  harFile = config.harDir === undefined ? undefined : join(config.harDir, `${process.pid}-${threadId}.jsonl`);
  return {
    async request(req) {
      const s = scope ?? fileScope;
      const seq = s ? ++s.seq : 0;
      const checkId = s?.id ?? 'x';
      const id = `${config.runId}-${checkId}-${seq}`;
      const rules = s?.rules.join(',') ?? '';
      const value = `run=${config.runId}; rule=${rules || '-'}; check=${checkId}; id=${id}`;
      const sent: HttpRequest = config.header === false || req.withoutCorrelationHeader ? req : { ...req, headers: { ...req.headers, [config.header]: value } };
      const started = Date.now();
      let response: HttpResponse | undefined;
      let error: string | undefined;
      try {
        response = await inner.request(sent);
        return response;
      } catch (err) {
        error = (err as Error).message;
        throw err;
      } finally {
        const record: Sent = {
          id, startedAt: started, method: req.method, url: req.url,
          ...(response && { status: response.status, durationMs: Math.round(response.durationMs) }),
          ...(error !== undefined && { error }),
        };
        if (s) {
          s.firstAt ??= started;
          s.last.push(record);
          if (s.last.length > KEEP) s.last.shift();
        }
        if (harFile !== undefined) {
          if (response) registerTokensIn(response.body);
          const entry: TaggedHarEntry = harEntry(
            { request: sent, startedAt: started, endedAt: started + (response?.durationMs ?? Date.now() - started), response, error },
            { _correlationId: id, _rules: s?.rules ?? [], _check: s && s !== fileScope ? s.title : '(after the file\'s checks)' },
          );
          pending.push(redactedJson(entry, redact));
          if (pending.length >= 200) flushTraffic();
        }
      }
    },
    close: () => inner.close(),
  };
}

const isoTime = (ms: number) => new Date(ms).toISOString();

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}
