/**
 * The certification gate (`run --require-checked`, issue 23) through the CLI, against a live target on loopback (the
 * simulator served without control: LIFE-01 needs clock control and ends `not-applicable` there): exit 1 naming the
 * rule; exit 0 when the baseline lists it as an expected skip with a reason, and the report shows it apart from the
 * known failures; the same run without the gate exits 0.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../harness/package-info.ts';
import type { Report } from '../../harness/report/model.ts';
import { simAccount } from '../../harness/sim/index.ts';
import { cleanUp, NO_PROXY_ENV, serveSimulator, setEnv, tempDir, writeTargetConfig } from './support.ts';

afterEach(cleanUp);

async function liveConfig(): Promise<string> {
  const account = simAccount({ epr: '7971', pcc: 'Z2NL', password: 'gate-secret-42', poolSize: 4 });
  const { server } = await serveSimulator({ accounts: { cert: [account], prod: [] } });
  setEnv({ ...NO_PROXY_ENV, TDS_GATE_PASSWORD: 'gate-secret-42' });
  return writeTargetConfig(tempDir('gate'), 'target.json', {
    name: 'gate',
    environments: { cert: server.urls.cert },
    accounts: { cert: { epr: '7971', pcc: 'Z2NL', passwordEnv: 'TDS_GATE_PASSWORD' } },
  });
}

function cli(args: readonly string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['bin/tds-conformance.js', 'run', '--rate', '1000', '--quiet', ...args], { cwd: PACKAGE_ROOT, env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000 }, (err, _out, stderr) => {
      if (err && typeof err.code !== 'number') reject(err);
      else resolve({ code: err ? (err.code as number) : 0, stderr });
    });
  });
}

describe('run --require-checked against a live target', () => {
  it('exits 1 naming the unchecked rule; 0 with it as an expected skip, shown apart; 0 without the gate', async () => {
    const config = await liveConfig();
    const out = tempDir('gate-out');
    const only = ['--only', 'LIFE-01,REST-03'];

    const plain = await cli(['--target', config, ...only, '--out', join(out, 'plain')]);
    expect(plain.code).toBe(0);

    const gated = await cli(['--target', config, ...only, '--require-checked', '--out', join(out, 'gated')]);
    expect(gated.code).toBe(1);
    expect(gated.stderr).toMatch(/LIFE-01 ended not-applicable \(.*\): --require-checked needs every selected rule checked/);
    expect(gated.stderr).not.toMatch(/REST-03 ended/);
    const report = JSON.parse(readFileSync(join(out, 'gated', 'report.json'), 'utf8')) as Report;
    expect(report.exitCode).toBe(1);
    expect(report.gate?.unchecked.map((u) => u.rule)).toEqual(['LIFE-01']);

    const baseline = join(out, 'baseline.json');
    writeFileSync(baseline, JSON.stringify({
      knownFailures: [],
      expectedSkips: [{ rule: 'LIFE-01', reason: 'CERT offers no clock control' }],
      requireChecked: true,
    }));
    const expected = await cli(['--target', config, ...only, '--baseline', baseline, '--out', join(out, 'expected')]);
    expect(expected.code).toBe(0);
    const accepted = JSON.parse(readFileSync(join(out, 'expected', 'report.json'), 'utf8')) as Report;
    expect(accepted.gate?.unchecked).toEqual([]);
    expect(accepted.gate?.expectedSkips).toEqual([{ rule: 'LIFE-01', status: 'not-applicable', reason: 'CERT offers no clock control' }]);
    expect(accepted.baseline?.knownFailures).toEqual([]);
    expect(accepted.rules.find((r) => r.id === 'LIFE-01')?.expectedSkip).toBe(true);
    const markdown = readFileSync(join(out, 'expected', 'report.md'), 'utf8');
    expect(markdown).toMatch(/expected skips[^\n]*LIFE-01/i);
  }, 180_000);
});
