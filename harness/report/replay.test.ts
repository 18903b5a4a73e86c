import { fc, test } from '../../test/support/property-test.ts';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  formatReplayTarget, parseReplayTarget, replayCommand, shellQuote, ShellSyntaxError, splitShellWords, withContext,
} from './replay.ts';
import { binaryUnit } from '../../test/support/binary-unit.ts';

const title = 'REST-04: N token calls yield N distinct tokens, each of them usable';

describe('shellQuote', () => {
  it('leaves plain words alone and single-quotes the rest', () => {
    expect(shellQuote('REST-04,ERR-01')).toBe('REST-04,ERR-01');
    expect(shellQuote('my-cert.json')).toBe('my-cert.json');
    expect(shellQuote('')).toBe("''");
    expect(shellQuote('a b')).toBe("'a b'");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('$HOME')).toBe("'$HOME'");
  });

  it('quotes words so that sh reads them back unchanged', () => {
    const words = ['plain', "it's \"quoted\"", '$HOME `x` \\n', 'tab\there', 'é ß «»'];
    const echoed = execFileSync('sh', ['-c', `printf '%s\\n' ${words.map(shellQuote).join(' ')}`], { encoding: 'utf8' });
    expect(echoed).toBe(`${words.join('\n')}\n`);
  });
});

describe('splitShellWords', () => {
  it('splits on whitespace and honours single quotes, double quotes and backslashes', () => {
    expect(splitShellWords(`npx tds-conformance run --replay 'A: b@0:1'  --x "y \\"z\\" \\$w" a\\ b`)).toEqual([
      'npx', 'tds-conformance', 'run', '--replay', 'A: b@0:1', '--x', 'y "z" $w', 'a b',
    ]);
    expect(splitShellWords(`'it'\\''s'`)).toEqual(["it's"]);
    expect(splitShellWords(`'' x`)).toEqual(['', 'x']);
    expect(splitShellWords('  ')).toEqual([]);
  });

  it('rejects unterminated quotes and a trailing backslash', () => {
    expect(() => splitShellWords("a 'b")).toThrow(new ShellSyntaxError('the command line has a single quote that is never closed'));
    expect(() => splitShellWords('a "b')).toThrow(new ShellSyntaxError('the command line has a double quote that is never closed'));
    expect(() => splitShellWords('a \\')).toThrow(new ShellSyntaxError('the command line ends with a backslash'));
  });

  test.prop([fc.array(fc.string({ unit: binaryUnit }), { maxLength: 6 })])('reads back what shellQuote wrote', (words) => {
    expect(splitShellWords(words.map(shellQuote).join(' '))).toEqual(words);
  });
});

describe('parseReplayTarget', () => {
  it('separates a final fast-check path from the title', () => {
    expect(parseReplayTarget(`${title}@0:0`)).toEqual({ check: title, path: '0:0' });
    expect(parseReplayTarget('REST-03: x@12')).toEqual({ check: 'REST-03: x', path: '12' });
  });

  it('keeps a title without a path, also one holding "@"', () => {
    expect(parseReplayTarget('REST-05: a response')).toEqual({ check: 'REST-05: a response' });
    expect(parseReplayTarget('CRED-03: user@example.com works')).toEqual({ check: 'CRED-03: user@example.com works' });
    expect(parseReplayTarget('CRED-03: a@b@1:2')).toEqual({ check: 'CRED-03: a@b', path: '1:2' });
  });

  it('refuses an empty title', () => {
    expect(parseReplayTarget('')).toBeUndefined();
    expect(parseReplayTarget('@0:1')).toBeUndefined();
  });

  it('is the inverse of formatReplayTarget', () => {
    for (const target of [{ check: title, path: '3:1:0' }, { check: 'REST-05: x' }]) {
      expect(parseReplayTarget(formatReplayTarget(target))).toEqual(target);
    }
  });
});

describe('replayCommand', () => {
  it('selects the check\'s rules, the seed and the check, then the run\'s context', () => {
    expect(replayCommand({ check: title, path: '0:0' }, 42, ['--defect', 'rest04-token-reused'])).toBe(
      `npx tds-conformance run --only REST-04 --seed 42 --replay '${title}@0:0' --defect rest04-token-reused`,
    );
    expect(replayCommand({ check: 'ERR-01, ERR-03: bad credentials' }, 7)).toBe(
      "npx tds-conformance run --only ERR-01,ERR-03 --seed 7 --replay 'ERR-01, ERR-03: bad credentials'",
    );
  });

  it('quotes context words that need it', () => {
    expect(withContext('npx tds-conformance run --seed 1', ['--target', 'my targets/cert.json'])).toBe(
      "npx tds-conformance run --seed 1 --target 'my targets/cert.json'",
    );
    expect(withContext('x', [])).toBe('x');
  });
});
