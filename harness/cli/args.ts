import { parseArgs, type ParseArgsConfig } from 'node:util';
import { matchRules, type RuleId } from '../spec/index.ts';
import { UsageError } from './usage-error.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** `parseArgs` with messages that say what to do. */
export function parse<O extends Options>(command: string, args: readonly string[], options: O) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (err) {
    const message = (err as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    throw new UsageError(`${message}. Run "tds-conformance ${command} --help" for the options.`);
  }
}

/** `--only REST-03,SESS-*` → rule IDs. Unknown IDs are a usage error naming them. */
export function parseOnly(values: readonly string[] | undefined): RuleId[] | undefined {
  if (!values || values.length === 0) return undefined;
  const selectors = values.flatMap((v) => v.split(/[\s,]+/)).filter(Boolean);
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

export function parseInteger(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be a whole number of at least ${min}, not "${value}".`);
  return n;
}
