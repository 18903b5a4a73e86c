/**
 * Where a run's time goes: with `TDS_TIMING=1`, the CLI and each test worker print the milliseconds since their
 * process started at a few marks (CLI start, Vitest ready, validator ready, first test file, report written), one line
 * each on standard error. `npm run bench` reads them to split the fixed cost of a run. Nothing is printed otherwise.
 */
const on = process.env['TDS_TIMING'] === '1';

/** Prints `tds-timing <process> <mark> <ms since the process started> at <epoch ms>` when `TDS_TIMING=1`. */
export function mark(name: string, who = 'main'): void {
  if (!on) return;
  process.stderr.write(`tds-timing ${who} ${name} ${performance.now().toFixed(0)} at ${Date.now()}\n`);
}
