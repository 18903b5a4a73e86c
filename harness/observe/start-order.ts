/**
 * Hands recorded exchanges over in the order the judge reads them: by start, then `seq` (the order of the batch
 * judge, harness/observe/traffic.ts). An exchange is held only while a request that started before it (or in the
 * same millisecond) is still in flight: what is held is bounded by the requests in flight and what ends meanwhile.
 */

interface Entry<T> {
  readonly startedAt: number;
  state: 'in-flight' | 'done' | 'dropped';
  seq: number;
  item: T | undefined;
}

/** A request in flight, as {@link StartOrder} knows it. */
export interface Ticket {
  readonly startedAt: number;
}

export class StartOrder<T> {
  readonly #release: (item: T) => void;
  /** Entries by start (a clock that went back is put in its place), from `#head` on. */
  #entries: Entry<T>[] = [];
  #head = 0;

  constructor(release: (item: T) => void) {
    this.#release = release;
  }

  /** A request started at `startedAt` (ms since the epoch). */
  begin(startedAt: number): Ticket {
    const entry: Entry<T> = { startedAt, state: 'in-flight', seq: 0, item: undefined };
    let i = this.#entries.length;
    while (i > this.#head && (this.#entries[i - 1] as Entry<T>).startedAt > startedAt) i--;
    this.#entries.splice(i, 0, entry);
    return entry;
  }

  /** The request of `ticket` was recorded as `item`, the `seq`-th request. */
  complete(ticket: Ticket, seq: number, item: T): void {
    const e = ticket as Entry<T>;
    if (e.state !== 'in-flight') return;
    e.state = 'done';
    e.seq = seq;
    e.item = item;
    this.#flush();
  }

  /** The request of `ticket` will not be recorded (refused, failed). */
  drop(ticket: Ticket): void {
    const e = ticket as Entry<T>;
    if (e.state !== 'in-flight') return;
    e.state = 'dropped';
    this.#flush();
  }

  /**
   * Hands over every item recorded, by start then seq, past the requests still in flight (the observation ends: what
   * they record later comes after).
   */
  settle(): void {
    const done = this.#entries.slice(this.#head).filter((e) => e.state === 'done');
    done.sort((a, b) => a.startedAt - b.startedAt || a.seq - b.seq);
    for (const e of done) {
      const item = e.item as T;
      e.state = 'dropped';
      e.item = undefined;
      this.#release(item);
    }
    this.#flush();
  }

  /** Exchanges recorded and not handed over yet (an earlier request is in flight), and requests in flight. */
  get held(): number {
    return this.#entries.length - this.#head;
  }

  #flush(): void {
    const list = this.#entries;
    while (this.#head < list.length) {
      const first = list[this.#head] as Entry<T>;
      // The requests of one millisecond are handed over together, by seq, once none of them is in flight.
      let end = this.#head;
      while (end < list.length && (list[end] as Entry<T>).startedAt === first.startedAt) end++;
      const group = list.slice(this.#head, end);
      if (group.some((e) => e.state === 'in-flight')) break;
      this.#head = end;
      for (const e of group.filter((g) => g.state === 'done').sort((a, b) => a.seq - b.seq)) {
        const item = e.item as T;
        e.item = undefined;
        this.#release(item);
      }
    }
    if (this.#head > 1_024 && this.#head * 2 > list.length) {
      this.#entries = list.slice(this.#head);
      this.#head = 0;
    }
  }
}
