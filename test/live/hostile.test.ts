/**
 * Hostile targets: a loopback server that answers every request (REST and SOAP) with something a real service
 * should never send — an endless body, an endless drip, a page that is not JSON, text that is not XML, an entity
 * bomb, an external-entity (XXE) attempt. The run must end, judge each affected rule `error` (no complete answer)
 * or `fail` (an answer that is wrong, saying what was wrong), expand no entity, and stay in bounded memory.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult, Report, RuleStatus } from '../../harness/report/index.ts';
import { ConformanceSession } from '../../harness/runner.ts';
import { createTransport, TransportError } from '../../harness/targets/index.ts';
import { billionLaughs, HUGE_BYTES, startHostileServer, type HostileMode, type HostileServer } from './hostile-server.ts';
import { cleanUp, NO_PROXY_ENV, setEnv, tempDir, writeTargetConfig } from './support.ts';
import { sharedSession } from '../support/shared-session.ts';

const RULES = ['REST-03', 'SOAP-02', 'STOK-01', 'ERR-04'] as const;
/** The time limit of a request against the drip; the others answer at once (or are cut at the size limit). */
const TIMEOUT_MS = 1500;
const GENEROUS_TIMEOUT_MS = 20_000;
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
const MARKER = 'tds-xxe-marker-5f1c9e7a2b';

let session: ConformanceSession;
let server: HostileServer;
let dir: string;
let config: string;
let markerFile: string;

beforeAll(async () => {
  dir = tempDir('hostile');
  markerFile = join(dir, 'marker.txt');
  writeFileSync(markerFile, `${MARKER}\n`);
  server = await startHostileServer({ markerFile });
  setEnv({ ...NO_PROXY_ENV, TDS_TEST_HOSTILE_PASSWORD: 'hostile-Pa55word' });
  config = writeTargetConfig(dir, 'target.json', {
    name: 'hostile target',
    environments: { cert: { restBaseUrl: server.restBaseUrl, soapUrl: server.soapUrl } },
    accounts: { cert: { epr: '7971', pcc: 'Z2NL', passwordEnv: 'TDS_TEST_HOSTILE_PASSWORD' } },
  });
  session = await sharedSession('live');
}, 60_000);

afterAll(async () => {
  await server?.close();
  await cleanUp();
}, 60_000);

/** Runs the three rules against the server in `mode`; the report, its exit code and the report files' text. */
async function runAgainst(mode: HostileMode): Promise<{ report: Report; exitCode: number; files: string }> {
  server.mode = mode;
  server.requests.length = 0;
  const outDir = join(dir, mode);
  const requestTimeoutMs = mode === 'drip' ? TIMEOUT_MS : GENEROUS_TIMEOUT_MS;
  const { report, exitCode } = await session.run({ budget: { requestsPerSecond: 1000 }, target: config, only: [...RULES], requestTimeoutMs, outDir, write: true, quiet: true, log: () => {} });
  const files = readdirSync(outDir).map((f) => readFileSync(join(outDir, f), 'utf8')).join('\n');
  return { report, exitCode, files };
}

function statuses(report: Report): Record<string, RuleStatus | undefined> {
  return Object.fromEntries(RULES.map((id) => [id, report.rules.find((r) => r.id === id)?.status]));
}

/** The checks of a rule that ran: not those that need the simulator's clock (not applicable to any live target). */
function ran(report: Report, id: string): CheckResult[] {
  return report.rules.find((r) => r.id === id)?.checks.filter((c) => c.status !== 'not-applicable') ?? [];
}

/** Status, code and message of a check, as one value to compare. */
function verdict(c: CheckResult | undefined): { status?: string; code?: string; message?: string } {
  if (!c) return {};
  return { status: c.status, ...('code' in c && c.code !== undefined && { code: c.code }), ...('message' in c && { message: c.message }) };
}

/** The parts of a failed check a reader needs to see what was wrong. */
function failure(c: CheckResult | undefined): { status?: string; message?: string; actual?: string } {
  return c && (c.status === 'fail' || c.status === 'warn') ? { status: c.status, message: c.message, ...(c.actual !== undefined && { actual: c.actual }) } : { ...(c && { status: c.status }) };
}

/** The audits of every answer (SOAP-02, REST-03, REST-05, ERR-03): they judge what the other checks received. */
const notAudit = (c: CheckResult) => !/^[A-Z]+-\d\d: every (SOAP answer|successful token answer|token error)/.test(c.name);

/**
 * What the checks say about an answer that is not a token response / not an envelope, per mode: REST-03 and SOAP-02
 * fail saying what came instead; the SOAP rules that need a SOAP answer are skipped, naming SOAP-02.
 */
function expectWrongAnswers(report: Report, body: string, notEnvelope: RegExp): void {
  expect(statuses(report)).toEqual({ 'REST-03': 'fail', 'SOAP-02': 'fail', 'STOK-01': 'skipped', 'ERR-04': 'skipped' });
  expect(ran(report, 'REST-03').filter(notAudit).map(failure)).toEqual([{ status: 'fail', message: 'the token response is not a JSON object', actual: JSON.stringify(body.slice(0, 200)) }]);
  const soap = ran(report, 'SOAP-02').filter(notAudit).map(failure);
  // Token create, session create and the fault fail; the call in a session needs a session: skipped.
  expect(soap.map((f) => f.status)).toEqual(['fail', 'fail', 'skipped', 'fail']);
  expect(soap[0]).toEqual({ status: 'fail', message: expect.stringMatching(/^the answer to TokenCreateRQ \(eb:version .*\) is not a SOAP envelope$/), actual: expect.stringMatching(/^200 /) });
  expect(soap[0]?.actual).toMatch(notEnvelope);
  const stok = ran(report, 'STOK-01').map(verdict);
  expect(stok).toEqual([{ status: 'skipped', message: expect.stringMatching(/^prerequisite failed: TokenCreateRQ got no SOAP envelope \(.*\) \(SOAP-02 failed\)$/) }]);
  // No session could be opened, so the checks that need one are skipped, naming the rule that failed first.
  for (const check of ran(report, 'ERR-04')) expect(verdict(check)).toEqual({ status: 'skipped', message: expect.stringMatching(/\(SOAP-02 failed\)$/) });
}

describe('a hostile target', () => {
  it('that streams an endless body: RESPONSE_TOO_LARGE errors at the transport limit, in bounded memory', async () => {
    const before = process.memoryUsage().rss;
    const { report, exitCode } = await runAgainst('huge');
    expect(statuses(report)).toEqual({ 'REST-03': 'error', 'SOAP-02': 'error', 'STOK-01': 'error', 'ERR-04': 'error' });
    const expected = { status: 'error', code: 'RESPONSE_TOO_LARGE', message: `the answer from ${server.restBaseUrl} is larger than ${MAX_RESPONSE_BYTES} bytes` };
    expect(RULES.flatMap((id) => ran(report, id)).filter(notAudit).map(verdict)).toEqual(Array(8).fill(expected));
    expect(exitCode).toBe(1);
    // The same through the transport in this process: it stops reading at its limit.
    const transport = createTransport({ timeoutMs: 30_000 });
    try {
      const err = await transport.request({ method: 'GET', url: `${server.restBaseUrl}/v1/lists/supported/shop/themes` }).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(TransportError);
      expect((err as TransportError).code).toBe('RESPONSE_TOO_LARGE');
    } finally {
      await transport.close();
    }
    expect(HUGE_BYTES).toBeGreaterThanOrEqual(50 * 1024 * 1024);
    expect(process.memoryUsage().rss - before).toBeLessThan(300 * 1024 * 1024);
  }, 120_000);

  it('that drips one byte every 200 ms and never ends: TIMEOUT errors', async () => {
    const { report, exitCode } = await runAgainst('drip');
    expect(statuses(report)).toEqual({ 'REST-03': 'error', 'SOAP-02': 'error', 'STOK-01': 'error', 'ERR-04': 'error' });
    const expected = { status: 'error', code: 'TIMEOUT', message: `no answer from ${server.restBaseUrl} within ${TIMEOUT_MS} ms` };
    expect(RULES.flatMap((id) => ran(report, id)).filter(notAudit).map(verdict)).toEqual(Array(8).fill(expected));
    expect(exitCode).toBe(1);
  }, 120_000);

  it('that answers 200 with an HTML page as JSON: fails saying the answer is not JSON, not an envelope', async () => {
    const { report, exitCode } = await runAgainst('not-json');
    expectWrongAnswers(report, '<html><body><h1>502 Bad Gateway</h1></body></html>', /^200 not-an-envelope: the root element is html, not \{http:\/\/schemas\.xmlsoap\.org\/soap\/envelope\/\}Envelope$/);
    expect(exitCode).toBe(1);
    // Both kinds of request reached the server.
    expect(new Set(server.requests)).toEqual(new Set(['POST /v2/auth/token', 'POST /websvc']));
  }, 120_000);

  it('that answers SOAP requests with text that is not XML: fails saying it is not well-formed', async () => {
    const { report, exitCode } = await runAgainst('not-xml');
    expectWrongAnswers(report, 'Service temporarily unavailable; try again later.', /^200 not-well-formed: /);
    expect(exitCode).toBe(1);
  }, 120_000);

  it('that answers with an entity bomb ("billion laughs"): fails saying DTDs are refused, expands nothing', async () => {
    const { report, exitCode } = await runAgainst('billion-laughs');
    expectWrongAnswers(report, billionLaughs(), /^200 doctype-forbidden: a "<!DOCTYPE" declaration was found; DTDs are refused \(no entity is ever expanded\)$/);
    const bomb = readFileSync(join(dir, 'billion-laughs', 'report.json'), 'utf8');
    expect(bomb).not.toContain('lollollol');
    expect(exitCode).toBe(1);
  }, 120_000);

  it('that answers with an external entity (XXE): fails saying DTDs are refused; no file content reaches the report', async () => {
    const { report, exitCode, files } = await runAgainst('xxe');
    expect(failure(ran(report, 'SOAP-02')[0]).actual).toBe('200 doctype-forbidden: a "<!DOCTYPE" declaration was found; DTDs are refused (no entity is ever expanded)');
    expect(statuses(report)).toEqual({ 'REST-03': 'fail', 'SOAP-02': 'fail', 'STOK-01': 'skipped', 'ERR-04': 'skipped' });
    expect(files).toContain('file://'); // the attempt itself is in the evidence …
    expect(files).not.toContain(MARKER); // … never what it points at
    // /etc/hostname too, when its content is distinctive enough not to occur by chance ("vm" would).
    const hostname = readFileSync('/etc/hostname', 'utf8').trim();
    if (hostname.length >= 8) expect(files).not.toContain(hostname);
    expect(exitCode).toBe(1);
  }, 120_000);
});
