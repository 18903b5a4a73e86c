/**
 * Replay commands: the command line a report prints under a failed check, which re-runs just that check with the
 * run's seed (and, for a property, the path of the shrunk counterexample) against the same target.
 *
 * `npx tds-conformance run --only REST-04 --seed 42 --replay 'REST-04: N token calls …@0:0' --defect rest04-token-reused`
 *
 * Pure: no I/O. The CLI parses these lines back with `parseReplayCommand` (`harness/cli/run.ts`).
 */
import { ruleIdsInTitle } from '../catalog/index.ts';

/** How a replay command starts. */
export const REPLAY_PREFIX = 'npx tds-conformance run';

/** Characters a shell word can hold without quotes. */
const PLAIN_WORD = /^[\w@%+=:,./-]+$/;

/** A word for a POSIX shell: as is when it needs no quoting, else in single quotes (a `'` inside as `'\''`). */
export function shellQuote(word: string): string {
  if (word !== '' && PLAIN_WORD.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Thrown by {@link splitShellWords} for a line a shell would not accept. */
export class ShellSyntaxError extends Error {
  readonly code = 'SHELL_SYNTAX';
  override readonly name = 'ShellSyntaxError';
}

/**
 * The words of a POSIX shell command line, as `sh` would split them before running it: whitespace separates
 * words; single quotes keep everything literally; double quotes keep everything but `\"`, `\\`, `` \` `` and `\$`;
 * a backslash outside quotes escapes the next character (a backslash-newline is removed). No expansion is done.
 *
 * @throws {ShellSyntaxError} for an unterminated quote or a trailing backslash.
 * @see https://pubs.opengroup.org/onlinepubs/9799919799/utilities/V3_chap02.html#tag_19_02
 */
export function splitShellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new ShellSyntaxError('the command line has a single quote that is never closed');
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      inWord = true;
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        const d = line[j] as string;
        if (d === '\\' && j + 1 < line.length && '"\\`$\n'.includes(line[j + 1] as string)) {
          if (line[j + 1] !== '\n') word += line[j + 1];
          j++;
        } else {
          word += d;
        }
      }
      if (j >= line.length) throw new ShellSyntaxError('the command line has a double quote that is never closed');
      i = j;
    } else if (c === '\\') {
      if (i + 1 >= line.length) throw new ShellSyntaxError('the command line ends with a backslash');
      if (line[i + 1] !== '\n') {
        word += line[i + 1];
        inWord = true;
      }
      i++;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** A `--replay` value: `<check title>@<path>` for a property, or just the title for a check without generated inputs. */
export interface ReplayTarget {
  /** The full title of the check (`REST-04: N token calls …`). */
  readonly check: string;
  /** The fast-check path of the counterexample (`0:0`); absent for a check without generated inputs. */
  readonly path?: string | undefined;
}

/** A fast-check path: run index, then the shrink steps, separated by `:`. */
const PATH = /^\d+(?::\d+)*$/;

/**
 * Reads a `--replay` value. A title may itself hold `@`; only a final `@` followed by a fast-check path (`0:3:1`)
 * separates a path. Returns `undefined` for an empty title.
 */
export function parseReplayTarget(value: string): ReplayTarget | undefined {
  const at = value.lastIndexOf('@');
  if (at > 0 && PATH.test(value.slice(at + 1))) return { check: value.slice(0, at), path: value.slice(at + 1) };
  if (value.trim() === '' || at === 0) return undefined;
  return { check: value };
}

/** The `--replay` value of a check: its title, and `@path` for a property. */
export function formatReplayTarget(target: ReplayTarget): string {
  return target.path === undefined ? target.check : `${target.check}@${target.path}`;
}

/**
 * The replay command of a check that judges what the other checks of its file exchanged (an audit of every answer):
 * `npx tds-conformance run --only <the rule IDs the run checked in that file> --seed <seed>`, no `--replay`, since a
 * replay of the audit alone would send nothing for it to judge.
 */
export function fileReplayCommand(ids: readonly string[], seed: number, context: readonly string[] = []): string {
  return withContext(`${REPLAY_PREFIX} ${['--only', [...new Set(ids)].join(','), '--seed', String(seed)].map(shellQuote).join(' ')}`, context);
}

/**
 * The replay command of a check: `npx tds-conformance run --only <its rule IDs> --seed <seed> --replay '<title>[@path]'`
 * followed by the run's context (`--target`, `--defect`, … see {@link withContext}).
 */
export function replayCommand(check: ReplayTarget, seed: number, context: readonly string[] = []): string {
  const ids = [...new Set(ruleIdsInTitle(check.check))];
  const words = [
    ...(ids.length > 0 ? ['--only', ids.join(',')] : []),
    '--seed', String(seed),
    '--replay', formatReplayTarget(check),
  ];
  return withContext(`${REPLAY_PREFIX} ${words.map(shellQuote).join(' ')}`, context);
}

/**
 * A replay command with the run's context appended (the arguments that make it run against the same target:
 * `--target`, `--suite`, `--defect`, `--allow-opt-in`, `--runs`, `--timeout`), each word shell-quoted.
 */
export function withContext(command: string, context: readonly string[]): string {
  return context.length === 0 ? command : `${command} ${context.map(shellQuote).join(' ')}`;
}
