import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Redactor } from '../report/redact.ts';
import { TRAFFIC_FILE } from '../report/write.ts';
import { runConformance } from '../runner.ts';
import { harEntry } from './har.ts';
import { collectRunHar, writeRunHar } from './run-traffic.ts';

const dir = mkdtempSync(join(tmpdir(), 'tds-run-traffic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The fields HAR 1.2 requires of an entry (http://www.softwareishard.com/blog/har-12-spec/), as devtools' importers read them. */
function expectHar12Entry(e: Record<string, any>): void {
  expect(Number.isNaN(Date.parse(e.startedDateTime))).toBe(false);
  expect(typeof e.time).toBe('number');
  for (const k of ['method', 'url', 'httpVersion']) expect(typeof e.request[k]).toBe('string');
  for (const k of ['cookies', 'headers', 'queryString']) expect(Array.isArray(e.request[k])).toBe(true);
  for (const k of ['headersSize', 'bodySize']) expect(typeof e.request[k]).toBe('number');
  for (const k of ['status', 'headersSize', 'bodySize']) expect(typeof e.response[k]).toBe('number');
  for (const k of ['statusText', 'httpVersion', 'redirectURL']) expect(typeof e.response[k]).toBe('string');
  for (const k of ['cookies', 'headers']) expect(Array.isArray(e.response[k])).toBe(true);
  expect(typeof e.response.content.size).toBe('number');
  expect(typeof e.response.content.mimeType).toBe('string');
  expect(typeof e.cache).toBe('object');
  for (const k of ['send', 'wait', 'receive']) expect(typeof e.timings[k]).toBe('number');
}

describe('the run\'s traffic as HAR', () => {
  it('joins the workers\' files in the order the requests started, skips a line cut short, and redacts once more', async () => {
    const traffic = join(dir, 'workers');
    rmSync(traffic, { recursive: true, force: true });
    const { mkdirSync } = await import('node:fs');
    mkdirSync(traffic);
    const entry = (at: number, id: string, body: string) => JSON.stringify(harEntry(
      { request: { method: 'POST', url: 'http://127.0.0.1:1/v2/auth/token', body }, response: { status: 200, headers: {}, body: '{}' }, startedAt: at, endedAt: at + 5 },
      { _correlationId: id, _rules: ['REST-03'], _check: 'REST-03: x' },
    ));
    writeFileSync(join(traffic, '1-1.jsonl'), `${entry(2_000, 'r1-a-2', 'main-secret-1')}\n{"cut sh`);
    writeFileSync(join(traffic, '2-1.jsonl'), `${entry(1_000, 'r1-a-1', 'x')}\n`);
    const har = await collectRunHar(traffic, { runId: 'r1', creator: { name: 'tds-auth-conformance', version: '0' } });
    expect(har.log.entries.map((e) => e._correlationId)).toEqual(['r1-a-1', 'r1-a-2']);
    const file = join(dir, 'out', 'run.har');
    await writeRunHar(har, [file], new Redactor(['main-secret-1']));
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('main-secret-1');
    for (const e of JSON.parse(text).log.entries) expectHar12Entry(e);
  });

  it('a simulator run with --report-har writes traffic.har beside the reports: one entry per request of its checks, each a HAR 1.2 entry', async () => {
    const outDir = join(dir, 'sim');
    const { report } = await runConformance({ target: 'sim', only: ['REST-03', 'SOAP-02', 'ERR-01'], runs: 2, outDir, reportHar: true, quiet: true, log: () => {} });
    // Relative to the report's directory: a report handed on names no path of the machine that wrote it.
    expect(report.correlation?.har).toEqual([TRAFFIC_FILE]);
    const har = JSON.parse(readFileSync(join(outDir, TRAFFIC_FILE), 'utf8')) as { log: { version: string; entries: Record<string, any>[] } };
    expect(har.log.version).toBe('1.2');
    const counted = new Map<string, number>();
    for (const rule of report.rules) for (const c of rule.checks) if (c.requests) counted.set(c.name, c.requests.count);
    const sent = [...counted.values()].reduce((a, b) => a + b, 0);
    expect(sent).toBeGreaterThan(10);
    const inChecks = har.log.entries.filter((e) => e._rules.length > 0);
    expect(inChecks).toHaveLength(sent);
    for (const e of har.log.entries) expectHar12Entry(e);
    for (const [name, count] of counted) expect(inChecks.filter((e) => e._check === name), name).toHaveLength(count);
  }, 60_000);
});
