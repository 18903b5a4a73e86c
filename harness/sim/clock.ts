/** The simulator's notion of time, injected so that tests can move it (token lifetimes, session timeouts). */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** A clock that moves only when told to: the in-process simulator target of the service suites. */
export class ManualClock implements Clock {
  #now: number;
  constructor(start: number = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  advance(seconds: number): void {
    if (!(seconds >= 0)) throw new RangeError(`cannot move the clock by ${seconds} s: only forward`);
    this.#now += Math.round(seconds * 1000);
  }
}

/**
 * A clock that follows real time and can also be moved forward: the simulator a client under test talks to, whose
 * time passes on its own (a client that tracks expiry on its own clock must still recover reactively).
 */
export class DriftingClock implements Clock {
  #offset = 0;
  constructor(private readonly real: () => number = Date.now) {}
  now(): number {
    return this.real() + this.#offset;
  }
  advance(seconds: number): void {
    if (!(seconds >= 0)) throw new RangeError(`cannot move the clock by ${seconds} s: only forward`);
    this.#offset += Math.round(seconds * 1000);
  }
}

export type AdvanceableClock = ManualClock | DriftingClock;
