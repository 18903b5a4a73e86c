import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parseInjections } from '../observe/index.ts';
import { PACKAGE_ROOT } from '../package-info.ts';
import type { Report } from '../report/index.ts';
import { defaultAccounts } from '../sim/index.ts';
import { ConfigError } from '../targets/index.ts';
import { observeCommand, shellCommand } from './observe.ts';
import { UsageError } from './usage-error.ts';

/** `observe` with these arguments, what it printed on standard output, and its exit code. */
async function observedPrinting(args: readonly string[]): Promise<{ code: number; printed: string[] }> {
  const printed: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    printed.push(String(chunk));
    return true;
  });
  try {
    return { code: await observeCommand(args), printed };
  } finally {
    write.mockRestore();
  }
}

describe('tds-conformance observe: arguments', () => {
  it('an unknown injection is a usage error listing the injections', () => {
    expect(() => parseInjections(['expire-all'])).toThrow(new UsageError('"expire-all" is not an injection. --inject takes expire-tokens-after=<s>, unauthorized-once, close-sessions, pool-full[=<n>] or overlap-first-calls (see "tds-conformance observe --help").'));
  });

  it('expire-tokens-after needs its seconds', () => {
    expect(() => parseInjections(['expire-tokens-after'])).toThrow(new UsageError('--inject expire-tokens-after takes a number of seconds: expire-tokens-after=<s>, not "expire-tokens-after".'));
    expect(parseInjections(['expire-tokens-after=30,pool-full'])).toEqual([{ kind: 'expire-tokens-after', seconds: 30 }, { kind: 'pool-full', requests: 3 }]);
  });

  it('a stray argument is a usage error pointing at "--"', async () => {
    await expect(observeCommand(['python3'])).rejects.toThrow(new UsageError('observe takes no argument "python3"; to run the application under observation, put its command after "--": tds-conformance observe -- <command>.'));
  });

  it('the words after "--" keep their quoting: one word is a command line, several a command and its arguments', async () => {
    expect(shellCommand(['npm start && npm run report'])).toBe('npm start && npm run report');
    expect(shellCommand(['python3', '-c', 'import app'])).toBe("python3 -c 'import app'");
    expect(shellCommand(['node', 'app.mjs', ''])).toBe("node app.mjs ''");
    // The shell gives each argument back as it was given.
    const { execFileSync } = await import('node:child_process');
    const words = ['printf', '%s|', 'a b', "it's", '$HOME', '`id`', '"q"', ''];
    expect(execFileSync('/bin/sh', ['-c', shellCommand(words)], { encoding: 'utf8' })).toBe("a b|it's|$HOME|`id`|\"q\"||");
  });

  it('injections need the simulator upstream', async () => {
    const config = join(PACKAGE_ROOT, 'fixtures/har/accounts.json');
    await expect(observeCommand(['--upstream', config, '--inject', 'close-sessions'])).rejects.toThrow(new ConfigError('CONFIG_INVALID', `--inject acts on the built-in simulator only: use it with --upstream sim, not ${config}.`));
  });
});

describe('tds-conformance observe -- <command>', () => {
  it('CRED-01, CRED-02, REST-01, API-04, API-05, LIFE-03: runs the application against the proxy, judges its traffic and writes reports without its secrets', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tds-observe-'));
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    let code: number;
    try {
      code = await observeCommand(['--out', out, '--inject', 'unauthorized-once', '--inject', 'overlap-first-calls', '--only', 'CRED,REST-01,API,LIFE', '--', `python3 ${join(PACKAGE_ROOT, 'examples/observe/app.py')}`]);
    } finally {
      write.mockRestore();
    }
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    // API-05 needs the application's concurrent first calls to overlap in time, which a loaded machine may not let its
    // threads do by themselves: overlap-first-calls holds the first call until the next one arrives, so it is decided.
    const statuses = report.rules.filter((r) => report.selection.includes(r.id)).map((r) => `${r.id} ${r.status}`);
    expect(statuses).toEqual([
      'CRED-01 pass', 'CRED-02 pass', 'CRED-04 pass', 'REST-01 pass', 'API-03 pass', 'API-04 pass', 'API-05 pass', 'LIFE-03 partial',
    ]);
    const passwords = [...defaultAccounts(1).accounts.cert, ...defaultAccounts(1).accounts.prod].map((a) => a.password);
    const texts = readdirSync(out).map((f) => readFileSync(join(out, f), 'utf8'));
    expect(texts.filter((t) => passwords.some((p) => t.includes(p)) || /T1RLAQ/.test(t))).toEqual([]);
  }, 30_000);

  it('an application that ran and then exited 127 is judged as a whole run, not as one that could not start', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tds-observe-127-'));
    const { code, printed } = await observedPrinting(['--out', out, '--only', 'CRED,REST-01', '--', `python3 ${join(PACKAGE_ROOT, 'examples/observe/app.py')}; exit 127`]);
    expect(printed.join('')).toContain('Observation ended: the application exited (code 127)');
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    expect(report.rules.find((r) => r.id === 'REST-01')?.status).toBe('pass');
  }, 30_000);

  it('an upstream that answers nothing: the proxy\'s 502s are a run error and the exit code is 3, not a clean observation', async () => {
    const out = mkdtempSync(join(tmpdir(), 'tds-observe-'));
    // A port nothing listens on: bound, then closed.
    const { createServer } = await import('node:net');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as import('node:net').AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    const config = join(out, 'dead.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(config, JSON.stringify({
      name: 'nothing there',
      environments: { cert: { restBaseUrl: `http://127.0.0.1:${port}`, soapUrl: `http://127.0.0.1:${port}/websvc` } },
      accounts: { cert: { epr: '7971', pcc: 'Z2NL', password: 'dead-upstream-secret-1' } },
    }));
    const { code, printed } = await observedPrinting(['--upstream', config, '--out', join(out, 'r'), '--only', 'CRED,REST-01', '--', `TDS_CERT_EPR=7971 TDS_CERT_PCC=Z2NL TDS_CERT_PASSWORD=dead-upstream-secret-1 python3 ${join(PACKAGE_ROOT, 'examples/observe/app.py')}`]);
    expect(code).toBe(3);
    const report = JSON.parse(readFileSync(join(out, 'r', 'report.json'), 'utf8')) as Report;
    expect(report.runErrors.map((e) => e.code)).toEqual(['TARGET_UNREACHABLE']);
    expect(report.runErrors[0]!.message).toMatch(/^the upstream gave no answer to \d+ of the \d+ requests observed \(the proxy answered them 502\): POST \/v2\/auth\/token: /);
    expect(printed.join('')).toContain('run error TARGET_UNREACHABLE: the upstream gave no answer');
  }, 60_000);
});
