/**
 * Published client libraries, wrapped in drivers of the documented protocol, judged by the client suite against the
 * loopback simulator: every rule's verdict must be the one its expected-verdicts file states, with the reason (the
 * library's behaviour, a cited line of its code). No network: the libraries talk to 127.0.0.1 only.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseReplayCommand } from '../../../harness/cli/run.ts';
import { PACKAGE_ROOT } from '../../../harness/package-info.ts';
import type { Report, RuleResult } from '../../../harness/report/index.ts';
import type { ConformanceSession } from '../../../harness/runner.ts';
import { rules, type RuleId } from '../../../harness/catalog/index.ts';
import { sharedSession } from '../../../test/support/shared-session.ts';

interface ExpectedVerdict {
  readonly status: RuleResult['status'];
  /** For `skipped`: the rule named as the prerequisite that failed first. */
  readonly after?: RuleId;
  readonly why: string;
  readonly source: { readonly file: string; readonly line: number; readonly text: string };
}

interface ExpectedVerdicts {
  readonly library: string;
  readonly version: string;
  readonly kind: string;
  readonly driver: string;
  readonly rules: Readonly<Record<string, ExpectedVerdict>>;
}

const LIBRARIES = ['simple-oauth2', 'sabre-rest', 'sabre-dev-studio'] as const;
const expectedOf = (name: string) => JSON.parse(readFileSync(join(PACKAGE_ROOT, 'examples/clients', name, 'expected-verdicts.json'), 'utf8')) as ExpectedVerdicts;
const clientRules = rules.filter((r) => r.side === 'client').map((r) => r.id);

const dir = mkdtempSync(join(tmpdir(), 'tds-libraries-'));
let session: ConformanceSession | undefined;

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

async function judge(name: string, seed: number, only?: readonly RuleId[]): Promise<Report> {
  session ??= await sharedSession('sim');
  const expected = expectedOf(name);
  const { report } = await session.run({
    target: 'sim',
    suite: 'client',
    client: { kind: 'command', command: expected.driver, cwd: PACKAGE_ROOT },
    outDir: join(dir, `${name}-${seed}`),
    seed,
    runs: 5,
    ...(only && { only }),
    quiet: true,
    log: () => {},
  });
  return report;
}

/** Each rule's verdict, and the prerequisite rule named for a skipped one, as the report gives them. */
function verdicts(report: Report): Record<string, { status: string; after?: string }> {
  return Object.fromEntries(report.rules.filter((r) => r.side === 'client').map((r) => {
    const after = r.checks.flatMap((c) => ('prerequisite' in c && c.prerequisite?.failedFirst ? [c.prerequisite.failedFirst] : []))[0];
    return [r.id, { status: r.status, ...(r.status === 'skipped' && after && { after }) }];
  }));
}

const want = (expected: ExpectedVerdicts) => Object.fromEntries(Object.entries(expected.rules).map(([id, v]) => [id, { status: v.status, ...(v.after && { after: v.after }) }]));

describe('expected-verdicts files', () => {
  it.each(LIBRARIES)('%s: states a verdict for every client rule, each citing a line of code that holds what it quotes', (name) => {
    const expected = expectedOf(name);
    expect(Object.keys(expected.rules).sort()).toEqual([...clientRules].sort());
    const lock = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
    expect(lock.packages[`node_modules/${expected.library}`]?.version).toBe(expected.version);
    for (const [id, verdict] of Object.entries(expected.rules)) {
      const line = readFileSync(join(PACKAGE_ROOT, verdict.source.file), 'utf8').split('\n')[verdict.source.line - 1];
      expect({ id, line: line?.includes(verdict.source.text) }).toEqual({ id, line: true });
      expect(verdict.why.length).toBeGreaterThan(20);
    }
  });
});

describe('published client libraries under the client suite (CRED-01, CRED-02, CRED-04, REST-01, API-03, API-04, API-05, LIFE-03, ENV-02, ERR-06)', () => {
  const reports = new Map<string, Report>();

  it.each(LIBRARIES)('%s: every rule gets the expected verdict', async (name) => {
    const report = await judge(name, 42);
    reports.set(name, report);
    expect(verdicts(report)).toEqual(want(expectedOf(name)));
  }, 90_000);

  it('simple-oauth2: the same verdicts of its property-based rules with another seed (the client is deterministic)', async () => {
    const only: RuleId[] = ['CRED-01', 'CRED-02', 'API-03', 'API-04', 'API-05', 'ENV-02'];
    const got = Object.fromEntries(Object.entries(verdicts(await judge('simple-oauth2', 20_260_523, only))).filter(([id]) => only.includes(id as RuleId)));
    expect(got).toEqual(Object.fromEntries(Object.entries(want(expectedOf('simple-oauth2'))).filter(([id]) => only.includes(id as RuleId))));
  }, 90_000);

  it('shows the credentials as masked layers on both sides of CRED-02, and titles unredacted with replay lines that name their check', () => {
    const report = reports.get('simple-oauth2');
    if (!report) throw new Error('the simple-oauth2 run did not complete');
    const check = report.rules.find((r) => r.id === 'CRED-02')?.checks[0];
    expect(check).toMatchObject({
      status: 'fail',
      expected: expect.stringMatching(/^"scheme \\"Basic\\", credentials b64\( b64\(\\"V1:<epr:\d+>:<pcc:\d+>:AA\\"\) \\":\\" b64\(<password:\d+>\) \)"$/),
      actual: expect.stringMatching(/^"scheme \\"Basic\\", credentials b64\( urlenc\(\\"V1:<epr:\d+>:<pcc:\d+>:AA\\"\) \\":\\" (?:urlenc\()?<password:\d+>\)? \)"$/),
    });
    for (const r of [...reports.values()].flatMap((x) => x.rules)) {
      for (const c of r.checks) {
        expect(c.name).not.toContain('«redacted»');
        if ('replay' in c && c.replay) expect(parseReplayCommand(c.replay).options.replay?.check).toBe(c.name);
      }
    }
  });

  it('sabre-dev-studio: its bunyan line on stdout is a diagnostic in the evidence, not a verdict', () => {
    const check = reports.get('sabre-dev-studio')?.rules.find((r) => r.id === 'ERR-06')?.checks[0];
    expect(check).toMatchObject({ status: 'fail', expected: expect.stringContaining('"code":"invalid_client"'), actual: '{"kind":"protocol","status":500}' });
    const evidence = check && 'evidence' in check ? (check.evidence ?? []).join('\n') : '';
    expect(evidence).toMatch(/driver stdout lines that are not answers \(diagnostics, last 1 of 1\):\n\{"name":"SabreDevStudio"/);
  });
});
