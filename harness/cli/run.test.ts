import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseReplayCommand, parseRunArgs } from './run.ts';
import { UsageError } from './usage-error.ts';

const usage = (run: () => unknown): string => {
  try {
    run();
  } catch (err) {
    if (err instanceof UsageError) return err.message;
    throw err;
  }
  throw new Error('no usage error');
};

describe('parseRunArgs', () => {
  it('has the documented defaults', () => {
    expect(parseRunArgs([])).toEqual({
      help: false,
      options: { target: 'sim', suite: 'service', outDir: resolve('reports/latest'), allowOptIn: undefined, defects: [], quiet: false },
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
    });
  });

  it('takes a replay of a check without a path', () => {
    expect(parseRunArgs(['--replay', 'REST-05: a response']).options.replay).toEqual({ check: 'REST-05: a response' });
  });

  it('refuses what it cannot act on', () => {
    expect(usage(() => parseRunArgs(['--update-baseline'])))
      .toBe('--update-baseline writes the file of --baseline: give both, as in "--baseline known.json --update-baseline".');
    expect(usage(() => parseRunArgs(['--replay', '@1'])))
      .toBe('--replay takes "<check title>@<path>" (or just the check title), as printed in a report\'s replay line.');
    expect(usage(() => parseRunArgs(['--suite', 'both']))).toBe('--suite must be service, client or all, not "both".');
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
    expect(usage(() => parseReplayCommand('npx tds-conformance run --bogus'))).toMatch(/^Unknown option '--bogus'.*Run "tds-conformance run --help" for the options\.$/);
  });
});
