/**
 * Where a JSON text stops parsing, as a line, without quoting the text (V8's message quotes what it found, which may
 * be an unquoted password). Used for every JSON file a user gives (target config, HAR, baseline, report).
 */
export function jsonErrorPlace(text: string, err: unknown): string {
  const message = err instanceof Error ? err.message : '';
  if (/Unexpected end of JSON input/.test(message)) return 'it ends too early';
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  const at = /\bposition (\d+)/.exec(message)?.[1];
  if (at !== undefined) return `a syntax error at line ${lineOf(Number(at))}`;
  // Node 20 quotes the text around the error instead (`Unexpected token 'Z', ..."word":Zq9"... is not valid JSON`):
  // the line is where that text is.
  const context = /, (?:\.\.\.)?"([\s\S]*?)"(?:\.\.\.)? is not valid JSON$/.exec(message)?.[1];
  const index = context === undefined ? -1 : text.indexOf(context);
  return index < 0 ? 'a syntax error' : `a syntax error at line ${lineOf(index + Math.min(10, context!.length - 1))}`;
}
