/**
 * The observer's process prefers memory to speed. An observation may last hours, and what it holds does not grow
 * with the traffic (running-judge.ts): what is left of its peak is V8's headroom over the garbage of the recording,
 * which V8 grows by up to four times the live heap when the collector falls behind (on a loaded machine). Told to
 * optimize for size, V8 grows the heap by a small factor and collects sooner, for some CPU (docs/performance.md has
 * the figures). Process-wide: the `observe` command calls it as it starts (harness/cli.ts), nothing else in the
 * harness does (a test that observes in its worker leaves the worker's heap as it was).
 */
import { setFlagsFromString } from 'node:v8';

export function leanHeap(): void {
  setFlagsFromString('--optimize-for-size');
}
