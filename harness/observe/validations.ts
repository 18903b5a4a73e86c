/**
 * Schema validations of the running judge, taken in the order the envelopes came (so that "the first failure" stays
 * the first of the traffic), up to {@link VALIDATIONS_IN_FLIGHT} at once. Envelopes wait while no validator is
 * attached (attached as the observation starts, or when it is judged); at the end, without one, each is taken
 * unvalidated.
 */
import type { EnvelopeValidator, Verdict } from '../soap/index.ts';
import { VALIDATIONS_IN_FLIGHT } from './pipelined.ts';

interface Pending {
  /** The validation to run; `undefined` from it: nothing to validate (any more). */
  readonly work: (v: EnvelopeValidator) => Promise<Verdict> | undefined;
  /** Takes the verdict in turn (`undefined`: not validated). */
  readonly take: (verdict: Verdict | undefined) => void;
  started?: Promise<Verdict | undefined>;
}

export class InOrderValidations {
  readonly #queue: Pending[] = [];
  #validator: EnvelopeValidator | undefined;
  #taking = false;
  #error: unknown;
  #idle: (() => void)[] = [];

  /**
   * Validates with `validator` from now on (the envelopes waiting first); `undefined`: none will come (none could start), each
   * envelope is taken unvalidated as it comes.
   */
  attach(validator: EnvelopeValidator | undefined): void {
    if (this.#validator || this.#none) return;
    if (!validator) {
      this.#none = true;
      for (const p of this.#queue.splice(0)) p.take(undefined);
      return;
    }
    this.#validator = validator;
    this.#pump();
  }

  #none = false;

  get attached(): boolean {
    return this.#validator !== undefined;
  }

  /** Envelopes waiting for their verdict. */
  get waiting(): number {
    return this.#queue.length;
  }

  push(work: Pending['work'], take: Pending['take']): void {
    if (this.#none) {
      take(undefined);
      return;
    }
    this.#queue.push({ work, take });
    this.#pump();
  }

  /** Every verdict taken; without a validator, each waiting envelope is taken unvalidated. */
  async drain(): Promise<void> {
    if (!this.#validator) {
      for (const p of this.#queue.splice(0)) p.take(undefined);
    } else if (this.#queue.length > 0) {
      await new Promise<void>((resolve) => {
        this.#idle.push(resolve);
        this.#pump();
      });
    }
    if (this.#error !== undefined) throw this.#error;
  }

  #pump(): void {
    const v = this.#validator;
    if (!v) return;
    for (let i = 0; i < this.#queue.length && i < VALIDATIONS_IN_FLIGHT; i++) {
      const p = this.#queue[i] as Pending;
      if (!p.started) {
        p.started = Promise.resolve().then(() => p.work(v));
        p.started.catch(() => undefined);
      }
    }
    if (this.#taking) return;
    const head = this.#queue[0];
    if (!head) {
      for (const resolve of this.#idle.splice(0)) resolve();
      return;
    }
    this.#taking = true;
    head.started!.then((verdict) => {
      this.#queue.shift();
      head.take(verdict);
    }, (err: unknown) => {
      this.#queue.shift();
      this.#error ??= err;
    }).finally(() => {
      this.#taking = false;
      this.#pump();
    });
  }
}
