/** A small seeded PRNG (mulberry32): the simulator's tokens and IDs are reproducible from its seed. */
export class Random {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }
  chars(alphabet: string, length: number): string {
    // Built from char codes in one go: a string grown with += is a rope that every later hash or compare flattens.
    const codes = new Array<number>(length);
    for (let i = 0; i < length; i++) codes[i] = alphabet.charCodeAt(this.int(alphabet.length));
    return String.fromCharCode(...codes);
  }
  digits(length: number): string {
    return this.chars('0123456789', length);
  }
}

export const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
