import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { matchRules, type RuleId } from '../catalog/index.ts';
import { UsageError } from './usage-error.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

const NEGATIVE_NUMBER = /^-\d/;

/**
 * `--runs -1` → `--runs=-1`: a value that looks like a negative number is the option's value (its range is then
 * checked with our own words), not an option of its own.
 */
function joinNegativeValues(args: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const name = arg.startsWith('--') && !arg.includes('=') ? arg.slice(2) : undefined;
    const next = args[i + 1];
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && NEGATIVE_NUMBER.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

/** Node's words for a command line it cannot read, as one line in ours: what is wrong, and what to do. */
function explain(command: string, err: Error & { code?: string }): string {
  const more = `Run "tds-conformance ${command} --help" for the options.`;
  const option = /Option '(?:-\w, )?(--?[\w-]+)/.exec(err.message)?.[1] ?? /'(--?[\w-]+)'/.exec(err.message)?.[1];
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option "${option ?? err.message}". ${more}`;
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    if (/argument missing/.test(err.message)) return `${option} needs a value, as in "${option} <value>". ${more}`;
    if (/ambiguous/.test(err.message)) {
      return `${option} needs a value, but the next word starts with "-": give the value after ${option}, or write ${option}=<value> for a value that starts with "-". ${more}`;
    }
    if (/does not take an argument/.test(err.message)) return `${option} takes no value: give it alone. ${more}`;
  }
  return `${err.message.split('\n', 1)[0] ?? err.message} ${more}`;
}

/** `parseArgs` with messages that say what to do (one line each). */
export function parse<O extends Options>(command: string, args: readonly string[], options: O) {
  try {
    return parseArgs({ args: joinNegativeValues(args, options), options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(explain(command, err as Error & { code?: string }));
  }
}

/** `--only REST-03,SESS-*` → rule IDs. Unknown IDs are a usage error naming them. */
export function parseOnly(values: readonly string[] | undefined): RuleId[] | undefined {
  if (!values || values.length === 0) return undefined;
  const selectors = values.flatMap((v) => v.split(/[\s,]+/)).filter(Boolean);
  if (selectors.length === 0) throw new UsageError('--only is empty: give rule IDs (REST-03), areas (SESS) or globs (ERR-0*), comma-separated.');
  const ids = new Set<RuleId>();
  const unknown: string[] = [];
  for (const selector of selectors) {
    const matched = matchRules(selector);
    if (matched.length === 0) unknown.push(selector);
    for (const id of matched) ids.add(id);
  }
  if (unknown.length) {
    throw new UsageError(
      `--only names ${unknown.length === 1 ? 'a rule' : 'rules'} the catalog does not have: ${unknown.join(', ')}. ` +
        'Give rule IDs (REST-03), areas (SESS) or globs (ERR-0*); "tds-conformance rules" lists them all.',
    );
  }
  return [...ids];
}

/** Largest time limit a timer can wait for (ms); a larger one would fire at once. */
export const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * `--name <n>`: a whole number (decimal digits only) from `min` to `max`, or `undefined` when not given.
 * @throws {UsageError} naming the option and its range.
 */
export function parseInteger(name: string, value: string | undefined, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const n = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `a whole number of at least ${min}` : `a whole number from ${min} to ${max}`;
    throw new UsageError(`--${name} must be ${range}, not "${value}".`);
  }
  return n;
}

/**
 * `--host`: the address to listen on, an IP address or a name that resolves. An empty value would make Node listen on
 * every interface, the control endpoint included; a name that does not resolve would end the command with a stack.
 */
export async function parseHost(value: string): Promise<string> {
  if (isIP(value) !== 0) return value;
  if (value.trim() !== '' && (await lookup(value).then(() => true, () => false))) return value;
  throw new UsageError(`--host must be an address to listen on (127.0.0.1, the default, for loopback only; 0.0.0.0 or :: for every interface; or a name that resolves), not "${value}".`);
}

/** A command that takes no positional argument: the first one given is a mistake to name. */
export function noPositionals(command: string, positionals: readonly string[]): void {
  if (positionals.length > 0) throw new UsageError(`${command} takes options only, not "${positionals[0]}": options start with "--". Run "tds-conformance ${command} --help" for the options.`);
}

/**
 * What a server that cannot listen says to do: the address is not this machine's (EADDRNOTAVAIL), the port is taken
 * (EADDRINUSE) or needs privileges (EACCES). Other errors are the harness's own, and thrown as they are.
 */
export async function listening<T>(host: string, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRNOTAVAIL') throw new UsageError(`cannot listen on ${host}: it is not an address of this machine (give --host 127.0.0.1, 0.0.0.0, or one of its own addresses).`);
    if (code === 'EADDRINUSE') throw new UsageError(`cannot listen on ${host}: a port asked for is in use (give another --port, or 0 for a free one).`);
    if (code === 'EACCES') throw new UsageError(`cannot listen on ${host}: a port asked for needs privileges (give a --port above 1023, or 0 for a free one).`);
    throw err;
  }
}

