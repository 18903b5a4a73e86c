/** Envelopes sent to the schema validator at once (its helper JVM answers them in turn). */
export const VALIDATIONS_IN_FLIGHT = 32;

/**
 * Asynchronous work over a list with up to `limit` items in flight (the schema validator answers many envelopes at
 * once; one at a time, each waits a round trip), the results taken in the list's order, so that "the first failure"
 * stays the first of the list. Leaving the loop early leaves at most `limit` items started for nothing.
 */
export async function* pipelined<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): AsyncGenerator<readonly [T, R]> {
  const inFlight: Promise<R>[] = [];
  let started = 0;
  const fill = (): void => {
    while (started < items.length && inFlight.length < limit) {
      const p = work(items[started++] as T);
      // A rejection is taken when its turn comes (or never, after an early exit): never an unhandled one.
      p.catch(() => undefined);
      inFlight.push(p);
    }
  };
  fill();
  for (let i = 0; i < items.length; i++) {
    const result = await (inFlight.shift() as Promise<R>);
    fill();
    yield [items[i] as T, result];
  }
}
