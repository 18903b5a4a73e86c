import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpRequest, Transport } from '../targets/index.ts';
import { registerSecret, secrets } from './secrets.ts';
import { beginCheck, checkIdFor, endCheck, flushTraffic, newRunId, setFileScope, tracingTransport } from './trace.ts';

/** A transport that answers 200 with `body` and remembers what it was sent. */
function fake(body = '{"ok":true}'): { transport: Transport; sent: HttpRequest[] } {
  const sent: HttpRequest[] = [];
  return {
    sent,
    transport: {
      async request(req) {
        sent.push(req);
        if (req.url.endsWith('/down')) throw new Error('cannot reach http://127.0.0.1:9 (ECONNREFUSED)');
        return { status: 200, headers: { 'content-type': 'application/json' }, body, durationMs: 3 };
      },
      close: async () => {},
    },
  };
}

const dirs: string[] = [];
afterEach(() => {
  endCheck();
  setFileScope(undefined);
  secrets.clear();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('tracingTransport', () => {
  it('adds the correlation header naming run, rules and check, numbering the check\'s requests; the report keeps the last 8', async () => {
    const { transport, sent } = fake();
    const traced = tracingTransport(transport, { runId: 'r0123abcd', header: 'X-Conformance-Check' });
    beginCheck(['REST-03', 'REST-05'], 'REST-03, REST-05: a valid request gets a token');
    for (let i = 0; i < 10; i++) await traced.request({ method: 'POST', url: 'http://127.0.0.1:1/v2/auth/token?x=1' });
    const check = checkIdFor('REST-03, REST-05: a valid request gets a token');
    expect(check).toMatch(/^[0-9a-f]{8}$/);
    expect(sent[0]?.headers?.['X-Conformance-Check']).toBe(`run=r0123abcd; rule=REST-03,REST-05; check=${check}; id=r0123abcd-${check}-1`);
    expect(sent[9]?.headers?.['X-Conformance-Check']).toContain(`id=r0123abcd-${check}-10`);
    const trace = endCheck();
    expect(trace?.count).toBe(10);
    expect(trace?.checkId).toBe(check);
    expect(trace?.requests.map((r) => r.id)).toEqual([3, 4, 5, 6, 7, 8, 9, 10].map((n) => `r0123abcd-${check}-${n}`));
    expect(trace?.requests[0]).toMatchObject({ method: 'POST', path: '/v2/auth/token?x=1', status: 200, durationMs: 3 });
    // The same title gives the same check ID in every run; another title another.
    expect(checkIdFor('REST-03, REST-05: a valid request gets a token')).toBe(check);
    expect(checkIdFor('REST-03: something else')).not.toBe(check);
  });

  it('sends no header when switched off, and still records the IDs; a request that got no answer is recorded with its error', async () => {
    const { transport, sent } = fake();
    const traced = tracingTransport(transport, { runId: newRunId(), header: false });
    beginCheck(['REST-03'], 'REST-03: x');
    await traced.request({ method: 'GET', url: 'http://127.0.0.1:1/a', headers: { accept: 'application/json' } });
    await expect(traced.request({ method: 'GET', url: 'http://127.0.0.1:1/down' })).rejects.toThrow(/ECONNREFUSED/);
    expect(sent[0]?.headers).toEqual({ accept: 'application/json' });
    const trace = endCheck();
    expect(trace?.count).toBe(2);
    expect(trace?.requests[1]).toMatchObject({ path: '/down', error: 'cannot reach http://127.0.0.1:9 (ECONNREFUSED)' });
    expect(trace?.requests[1]?.status).toBeUndefined();
  });

  it('traces requests outside any check as the file\'s; a check that sent nothing has no trace', async () => {
    const { transport, sent } = fake();
    const traced = tracingTransport(transport, { runId: 'r00000001', header: 'X-QA' });
    beginCheck(['REST-03'], 'REST-03: nothing sent');
    expect(endCheck()).toBeUndefined();
    setFileScope('suites/service/sessions.test.ts');
    await traced.request({ method: 'POST', url: 'http://127.0.0.1:1/websvc' });
    expect(sent[0]?.headers?.['X-QA']).toMatch(/^run=r00000001; rule=-; check=x[0-9a-f]{7}; id=r00000001-x[0-9a-f]{7}-1$/);
  });

  it('writes each exchange as a tagged HAR entry, redacted with the secrets of the worker (the password, and a token from the answer)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tds-trace-'));
    dirs.push(dir);
    registerSecret('hunter2-password');
    const { transport } = fake('{"access_token":"T-secret-token-99","token_type":"bearer"}');
    const traced = tracingTransport(transport, { runId: 'r0000000f', header: 'X-Conformance-Check', harDir: dir });
    beginCheck(['REST-03'], 'REST-03: a valid request gets a token');
    await traced.request({ method: 'POST', url: 'http://127.0.0.1:1/v2/auth/token', headers: { authorization: `Basic ${Buffer.from('V1:a:b:AA:hunter2-password').toString('base64')}` }, body: 'grant_type=client_credentials' });
    await traced.request({ method: 'GET', url: 'http://127.0.0.1:1/v1/lists', headers: { authorization: 'Bearer T-secret-token-99' } });
    endCheck();
    flushTraffic();
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    const text = readFileSync(join(dir, files[0]!), 'utf8');
    expect(text).not.toContain('hunter2-password');
    expect(text).not.toContain('T-secret-token-99');
    expect(text).not.toContain(Buffer.from('V1:a:b:AA:hunter2-password').toString('base64'));
    const entries = text.trim().split('\n').map((l) => JSON.parse(l) as { _correlationId: string; _rules: string[]; _check: string; request: { method: string; headers: { name: string }[] }; response: { status: number } });
    expect(entries.map((e) => e._correlationId)).toEqual(['r0000000f-', 'r0000000f-'].map((p, i) => `${p}${checkIdFor('REST-03: a valid request gets a token')}-${i + 1}`));
    expect(entries[0]).toMatchObject({ _rules: ['REST-03'], _check: 'REST-03: a valid request gets a token', request: { method: 'POST' }, response: { status: 200 } });
    expect(entries[0]?.request.headers.map((h) => h.name)).toContain('X-Conformance-Check');
  });
});
