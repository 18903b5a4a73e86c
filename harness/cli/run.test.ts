import { resolve } from 'node:path';
import { fc, test } from '../../test/support/property-test.ts';
import { replayContext } from '../run/selection.ts';
import { describe, expect, it } from 'vitest';
import { parseReplayCommand, parseRunArgs } from './run.ts';
import { usage } from '../../test/support/cli.ts';
import { UsageError } from './usage-error.ts';


describe('parseRunArgs', () => {
  it('has the documented defaults', () => {
    expect(parseRunArgs([])).toEqual({
      help: false,
      options: { target: 'sim', suite: 'service', outDir: resolve('reports/latest'), allowOptIn: undefined, defects: [], quiet: false },
      given: { out: 'reports/latest' },
    });
  });

  it('reads every option', () => {
    const parsed = parseRunArgs([
      '--target', 'cert.json', '--suite', 'all', '--only', 'REST-03,ERR-01', '--out', 'out', '--seed', '7', '--runs', '3',
      '--allow-opt-in', '--timeout', '900', '--quiet', '--replay', 'REST-03: x@1:2', '--baseline', 'known.json', '--update-baseline',
    ]);
    expect(parsed).toEqual({
      help: false,
      options: {
        target: 'cert.json', suite: 'all', outDir: resolve('out'), allowOptIn: true, defects: [], quiet: true,
        only: ['REST-03', 'ERR-01'], seed: 7, runs: 3, requestTimeoutMs: 900, replay: { check: 'REST-03: x', path: '1:2' },
      },
      baseline: { file: 'known.json', update: true },
      given: { out: 'out' },
    });
  });

  it('takes a replay of a check without a path', () => {
    expect(parseRunArgs(['--replay', 'REST-05: a response']).options.replay).toEqual({ check: 'REST-05: a response' });
  });

  it('takes the CERT-run options: the gate, the HAR files and the correlation header', () => {
    const { options } = parseRunArgs(['--require-checked', '--har', 'run.har', '--report-har', '--correlation-header', 'X-QA-Trace']);
    expect(options).toMatchObject({ requireChecked: true, har: resolve('run.har'), reportHar: true, correlationHeader: 'X-QA-Trace' });
    expect(parseRunArgs(['--no-correlation-header']).options.correlationHeader).toBe(false);
    expect(parseRunArgs([]).options.correlationHeader).toBeUndefined();
    expect(usage(() => parseRunArgs(['--correlation-header', 'X QA']))).toBe(
      '--correlation-header takes an HTTP header name (letters, digits and "-", such as X-Conformance-Check), not "X QA".',
    );
    expect(usage(() => parseRunArgs(['--correlation-header', 'X-QA', '--no-correlation-header']))).toBe(
      'give --correlation-header <name> or --no-correlation-header, not both.',
    );
    expect(usage(() => parseRunArgs(['--har', ' ']))).toBe('--har is empty: give the file to write the run\'s traffic to (a .har file).');
  });

  it('refuses what it cannot act on', () => {
    expect(usage(() => parseRunArgs(['--update-baseline'])))
      .toBe('--update-baseline writes the file of --baseline: give both, as in "--baseline known.json --update-baseline".');
    // A shard knows only its part of the run's failures: the merge updates the baseline.
    expect(usage(() => parseRunArgs(['--shard', '1/2', '--baseline', 'known.json', '--update-baseline'])))
      .toBe('--update-baseline writes what the whole run failed, which one shard does not know: run the shards with --baseline, then "tds-conformance merge <shards> --baseline <file> --update-baseline".');
    expect(parseRunArgs(['--shard', '1/2', '--baseline', 'known.json']).baseline).toEqual({ file: 'known.json', update: false });
    expect(usage(() => parseRunArgs(['--replay', '@1'])))
      .toBe('--replay takes "<check title>@<path>" (or just the check title), as printed in a report\'s replay line.');
    expect(usage(() => parseRunArgs(['--suite', 'both']))).toBe('--suite must be service, client or all, not "both".');
  });

  it('reads --throttle-wait in seconds, into the run\'s wait in ms, and passes it on in a replay command', () => {
    expect(parseRunArgs(['--throttle-wait', '5']).options.throttleWaitMs).toBe(5_000);
    expect(parseRunArgs([]).options.throttleWaitMs).toBeUndefined();
    const options = parseRunArgs(['--throttle-wait', '5']).options;
    expect(replayContext({ ...options, target: 'my-cert.json' })).toEqual(expect.arrayContaining(['--throttle-wait', '5']));
  });

  it.each([
    [['--runs', '-1'], '--runs must be a whole number of at least 1, not "-1".'],
    [['--runs=-1'], '--runs must be a whole number of at least 1, not "-1".'],
    [['--runs', '0'], '--runs must be a whole number of at least 1, not "0".'],
    [['--runs', '2.5'], '--runs must be a whole number of at least 1, not "2.5".'],
    [['--runs', '0x10'], '--runs must be a whole number of at least 1, not "0x10".'],
    [['--seed', ''], '--seed must be a whole number from 0 to 2147483647, not "".'],
    [['--seed', '-3'], '--seed must be a whole number from 0 to 2147483647, not "-3".'],
    [['--seed', '4294967296'], '--seed must be a whole number from 0 to 2147483647, not "4294967296".'],
    [['--timeout', '99999999999'], '--timeout must be a whole number from 1 to 2147483647, not "99999999999".'],
    [['--client-timeout', '0'], '--client-timeout must be a whole number from 1 to 2147483647, not "0".'],
    [['--max-sessions', '-1'], '--max-sessions must be a whole number of at least 0, not "-1".'],
    [['--max-tokens', 'many'], '--max-tokens must be a whole number of at least 0, not "many".'],
    [['--rate', '0'], '--rate must be a whole number of at least 1, not "0".'],
    [['--throttle-wait', '-5'], '--throttle-wait must be a whole number from 0 to 3600, not "-5".'],
    [['--throttle-wait', '1.5'], '--throttle-wait must be a whole number from 0 to 3600, not "1.5".'],
    [['--runs'], '--runs needs a value, as in "--runs <value>". Run "tds-conformance run --help" for the options.'],
    [['--out', '--quiet'], '--out needs a value, but the next word starts with "-": give the value after --out, or write --out=<value> for a value that starts with "-". Run "tds-conformance run --help" for the options.'],
    [['--quiet=yes'], '--quiet takes no value: give it alone. Run "tds-conformance run --help" for the options.'],
    [['-x'], 'unknown option "-x". Run "tds-conformance run --help" for the options.'],
    [['REST-03'], 'run takes options only, not "REST-03": options start with "--". Run "tds-conformance run --help" for the options.'],
    [['--out', ''], '--out is empty: give a directory for the reports (it is created if absent).'],
    [['--target', ''], '--target is empty: give sim, cert or the path of a target config file.'],
    [['--only', ','], '--only is empty: give rule IDs (REST-03), areas (SESS) or globs (ERR-0*), comma-separated.'],
  ])('refuses %j in its own words', (args, message) => {
    expect(usage(() => parseRunArgs(args))).toBe(message);
  });
});

describe('any command line', () => {
  const OPTIONS = [
    '--target', '--suite', '--only', '--out', '--seed', '--runs', '--allow-opt-in', '--defect', '--replay', '--baseline', '--update-baseline',
    '--timeout', '--throttle-wait', '--client', '--client-module', '--client-timeout', '--max-tokens', '--max-sessions', '--rate', '--quiet', '--help', '--',
  ];
  const word = fc.oneof(
    fc.constantFrom(...OPTIONS),
    fc.constantFrom(...OPTIONS).map((o) => `${o}=`),
    fc.constantFrom('-1', '0', '1e3', '', ' ', '-', '--', 'REST-03', 'all', 'sim', '2147483648', 'x@1:2', "'", '"'),
    fc.string(),
  );
  test.prop([fc.array(word, { maxLength: 8 })])('is read into options or refused with a usage error, never another error', (args) => {
    try {
      parseRunArgs(args);
    } catch (err) {
      expect(err).toBeInstanceOf(UsageError);
      expect((err as Error).message).not.toContain('\n');
    }
  });
});

describe('parseReplayCommand', () => {
  const line = "npx tds-conformance run --only REST-04 --seed 42 --replay 'REST-04: N token calls yield N distinct tokens, each of them usable@0:0' --defect rest04-token-reused";

  it('reads a report\'s replay line into the run it stands for', () => {
    expect(parseReplayCommand(line).options).toMatchObject({
      target: 'sim',
      only: ['REST-04'],
      seed: 42,
      defects: ['rest04-token-reused'],
      replay: { check: 'REST-04: N token calls yield N distinct tokens, each of them usable', path: '0:0' },
    });
  });

  it('accepts the command without npx, and through node', () => {
    const expected = parseReplayCommand(line).options;
    expect(parseReplayCommand(line.replace('npx ', '')).options).toEqual(expected);
    expect(parseReplayCommand(line.replace('npx tds-conformance', 'node bin/tds-conformance.js')).options).toEqual(expected);
  });

  it('keeps quoted titles with quotes and @ intact', () => {
    const parsed = parseReplayCommand(`npx tds-conformance run --only CRED-03 --seed 1 --replay 'CRED-03: "it'\\''s" user@host@4' --target 'my cert.json'`);
    expect(parsed.options).toMatchObject({ target: 'my cert.json', replay: { check: 'CRED-03: "it\'s" user@host', path: '4' } });
  });

  it('refuses a line that is not a run command, or that a shell could not read', () => {
    expect(usage(() => parseReplayCommand('npx vitest run'))).toBe('a replay command starts with "npx tds-conformance run", not "npx vitest run".');
    expect(usage(() => parseReplayCommand("npx tds-conformance run --replay 'x"))).toBe('the replay command cannot be read: the command line has a single quote that is never closed.');
    expect(usage(() => parseReplayCommand('npx tds-conformance run --bogus'))).toBe('unknown option "--bogus". Run "tds-conformance run --help" for the options.');
  });
});
