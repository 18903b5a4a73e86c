/**
 * A set of deliberate deviations (a simulator's defects, a client's faults) that remembers which were asked about.
 * The code under test deviates only where it asks `has(id)`: code that never asked about a deviation behaved as it
 * would have with that deviation switched on (or off). The self-test reuses, for each suite file, a run's verdicts
 * without the deviations when the file's code never asked about the subject's (harness/selftest.ts). Any other read
 * of the set (its size, its members) counts as asking about every deviation.
 */
export class ConsultedSet<T extends string> implements ReadonlySet<T> {
  readonly #on: ReadonlySet<T>;
  readonly #asked = new Set<T>();
  #askedAll = false;

  constructor(on: Iterable<T>) {
    this.#on = new Set(on);
  }

  /** The deviations asked about so far, or `all` once the set was read other than by `has`. */
  get consulted(): ReadonlySet<T> | 'all' {
    return this.#askedAll ? 'all' : this.#asked;
  }

  /** The deviations switched on, read without counting as asking (for the one who switched them on). */
  get switchedOn(): ReadonlySet<T> {
    return this.#on;
  }

  has(id: T): boolean {
    this.#asked.add(id);
    return this.#on.has(id);
  }

  #all(): ReadonlySet<T> {
    this.#askedAll = true;
    return this.#on;
  }

  get size(): number {
    return this.#all().size;
  }
  forEach(fn: (value: T, key: T, set: ReadonlySet<T>) => void, thisArg?: unknown): void {
    this.#all().forEach((v) => fn.call(thisArg, v, v, this));
  }
  entries(): SetIterator<[T, T]> {
    return this.#all().entries();
  }
  keys(): SetIterator<T> {
    return this.#all().keys();
  }
  values(): SetIterator<T> {
    return this.#all().values();
  }
  [Symbol.iterator](): SetIterator<T> {
    return this.#all()[Symbol.iterator]();
  }
}

/** What a {@link ConsultedSet} was asked about, as a report carries it: sorted names, or `all`. */
export function consultedList(asked: ReadonlySet<string> | 'all' | undefined): readonly string[] | 'all' {
  return asked === undefined ? [] : asked === 'all' ? 'all' : [...asked].sort();
}
