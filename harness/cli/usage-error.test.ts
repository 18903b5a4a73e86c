import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-info.ts';

/**
 * Bad input to `tds-conformance run` is refused before the run starts: exit code 2, one line on standard error that
 * says what to do, nothing on standard output, never a stack trace.
 */
describe('bad input to run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tds-usage-'));
  const file = join(dir, 'a-file.txt');
  writeFileSync(file, 'not a directory');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function cli(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, [join(PACKAGE_ROOT, 'bin/tds-conformance.js'), ...args], { cwd: dir, timeout: 60_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr });
      });
    });
  }

  const hint = 'give the command that starts the driver as you would type it in a shell, as in --client "node my-driver.js" (docs/driver-protocol.md).';
  const cases: [string, string[], string][] = [
    ['an --out under a file', ['run', '--out', join(file, 'reports')], `--out "${join(file, 'reports')}" cannot be created: a part of its path is a file. Give a directory for the reports (it is created if absent).`],
    ['an --out that is a file', ['run', '--out', file], `--out "${file}" is a file, not a directory: give a directory for the reports (it is created if absent).`],
    ['a --client command that does not exist', ['run', '--suite', 'client', '--client', 'tds-no-such-driver --stdio'], `--client: the command "tds-no-such-driver" was not found on PATH: ${hint}`],
    ['a --client path that does not exist', ['run', '--suite', 'client', '--client', './drivers/none.sh'], `--client: "./drivers/none.sh" does not exist: ${hint}`],
    ['a --client-module that does not exist', ['run', '--suite', 'client', '--client-module', 'none.ts'], '--client-module "none.ts" is not a file: give the path of a module that exports createClient() (docs/driver-protocol.md).'],
    ['a negative --runs', ['run', '--runs', '-1'], '--runs must be a whole number of at least 1, not "-1".'],
    ['a --timeout past what a timer can wait', ['run', '--timeout', '3000000000'], '--timeout must be a whole number from 1 to 2147483647, not "3000000000".'],
    ['an option without its value', ['run', '--seed'], '--seed needs a value, as in "--seed <value>". Run "tds-conformance run --help" for the options.'],
    ['a word that is not an option', ['run', 'SESS-02'], 'run takes options only, not "SESS-02": options start with "--". Run "tds-conformance run --help" for the options.'],
  ];
  // Learned profiles (serve --profile, run and observe --sim-profile, calibrate).
  const notProfile = join(dir, 'not-a-profile.json');
  writeFileSync(notProfile, '{"schema":"something-else"}');
  cases.push(
    ['--with-deviations without a profile', ['serve', '--with-deviations'], '--with-deviations reproduces the deviations of a learned profile: give it with --profile <profile.json>.'],
    ['a profile file that is no profile', ['serve', '--profile', notProfile], `${notProfile} is not a profile of this tool (its "schema" is "something-else", not "tds-auth-conformance/profile@1"): give a profile.json written by a live run.`],
    ['--sim-profile with a live target', ['run', '--target', 'cert', '--sim-profile', notProfile], '--sim-profile makes the built-in simulator a stand-in for a learned target: it goes with --target sim, not "cert".'],
    ['--sim-profile that cannot be read', ['run', '--sim-profile', join(dir, 'none.json')], `cannot read the profile ${join(dir, 'none.json')} (ENOENT): give the profile.json a live run wrote.`],
    ['calibrate without a target', ['calibrate', '--profile', notProfile], 'calibrate compares a live target with its stand-in: give the target with --target cert or --target <config.json>.'],
    ['calibrate without a profile', ['calibrate', '--target', 'cert'], 'give the learned profile with --profile <profile.json> (a live run writes it beside its reports).'],
    ['calibrate with a threshold past 100', ['calibrate', '--target', 'cert', '--profile', notProfile, '--min-fidelity', '120'], '--min-fidelity takes a percentage from 0 to 100, not "120".'],
  );
  // Commands without options (before, `docs --help` wrote docs/rules.md and `rules --help` listed the rules).
  cases.push(
    ['an argument to docs', ['docs', '--out', 'x'], '"docs" takes no options, not "--out" (see "tds-conformance docs --help").'],
    ['an argument to rules', ['rules', 'SESS'], '"rules" takes no options, not "SESS" (see "tds-conformance rules --help").'],
  );
  // Ports, hosts, words where options go, the HAR file, observe's --out and command, selftest's --only.
  cases.push(
    ['serve on a port past 65535', ['serve', '--port', '70000'], '--port must be a whole number from 0 to 65535, not "70000".'],
    ['serve on an empty host (every interface)', ['serve', '--host', ''], '--host must be an address to listen on (127.0.0.1, the default, for loopback only; 0.0.0.0 or :: for every interface; or a name that resolves), not "".'],
    ['serve on an address that is not this machine\'s', ['serve', '--host', '10.9.9.9', '--port', '0'], 'cannot listen on 10.9.9.9: it is not an address of this machine (give --host 127.0.0.1, 0.0.0.0, or one of its own addresses).'],
    ['a word after serve', ['serve', 'extra'], 'serve takes options only, not "extra": options start with "--". Run "tds-conformance serve --help" for the options.'],
    ['observe on a host that is no address', ['observe', '--host', '999.1.1.1', '--', 'true'], '--host must be an address to listen on (127.0.0.1, the default, for loopback only; 0.0.0.0 or :: for every interface; or a name that resolves), not "999.1.1.1".'],
    ['observe writing to a file', ['observe', '--out', file, '--', 'true'], `--out "${file}" is a file, not a directory: give a directory for the reports (it is created if absent).`],
    ['--har that is a directory', ['run', '--har', dir], `--har "${dir}" is a directory: give the file to write the run's traffic to (a .har file).`],
    ['--har under a file', ['run', '--har', join(file, 'x.har')], `--har "${join(file, 'x.har')}" cannot be written: a part of its path is a file. Give a file in a directory (it is created if absent).`],
    ['a --replay title no check has', ['run', '--only', 'REST-03', '--replay', 'REST-03: no such check@0:1'], '--replay "REST-03: no such check" names no check of the suites: give a check\'s full title, as the report\'s replay line does ("<rule IDs>: <title>", with "@<path>" for a property).'],
    ['an empty --only of selftest', ['selftest', '--only', ''], '--only is empty: give part of a defect or mutant ID (as "tds-conformance selftest" prints them), or defect, mutant or reference.'],
  );
  // A place that cannot be written (Linux: nothing can be created under /proc; Node's own recursive mkdir never returns there).
  if (process.platform === 'linux') {
    cases.push(['an --out that cannot be created', ['run', '--out', '/proc/x'], '--out "/proc/x" cannot be created (ENOENT): give a directory you can write to (it is created if absent).']);
    cases.push(['a --har that cannot be created', ['run', '--har', '/proc/x/y.har'], '--har "/proc/x/y.har" cannot be written (ENOENT): give a file in a directory you can write to.']);
  }

  it.concurrent.each(cases)('refuses %s at once: exit code 2 and one line saying what to do', async (_what, args, message) => {
    const { code, stdout, stderr } = await cli(args);
    expect(stderr).toBe(`tds-conformance: ${message}\n`);
    expect(stdout).toBe('');
    expect(code).toBe(2);
  }, 60_000);

  it.concurrent.each([['docs'], ['rules']])('%s --help prints its usage and does nothing else', async (command) => {
    const { code, stdout, stderr } = await cli([command, '--help']);
    expect(stdout).toMatch(new RegExp(`^Usage: tds-conformance ${command}\\n`));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  }, 60_000);

  it('refuses to observe an application whose command the shell cannot find (exit 127): exit code 2, not an empty observation', async () => {
    const { code, stdout, stderr } = await cli(['observe', '--out', join(dir, 'observed'), '--', 'tds-no-such-app-123']);
    // The shell's own line comes first; the harness's is the last, and says what to do.
    expect(stderr.trim().split('\n').at(-1)).toBe('tds-conformance: the command could not start: the shell could not run it (exit code 127: no such command): "tds-no-such-app-123". Give the command that runs the application, as you would type it in a shell.');
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stdout).not.toContain('Observation ended');
    expect(code).toBe(2);
  }, 60_000);
});
