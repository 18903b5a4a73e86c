/**
 * Where the recording proxy puts the bodies of what it records, as they come: a file of the operating system's
 * temporary directory (readable by its owner only, removed when the observation closes), each body encrypted with
 * AES-256-GCM under a key that never leaves the process — a body holds passwords and tokens, and nothing written may
 * hold one. Memory keeps where each body is; the judge reads a body back when it needs the text (the schema
 * validator, the evidence of a failure), the facts it judges on having been read as the exchange was recorded.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Where one body is in the spool. */
export interface SpooledBody {
  readonly offset: number;
  readonly length: number;
}

export class BodySpool {
  readonly #dir: string;
  readonly #fd: number;
  readonly #key = randomBytes(32);
  #size = 0;
  #closed = false;
  #reads = 0;

  constructor(parent: string = tmpdir()) {
    this.#dir = mkdtempSync(join(parent, 'tds-observe-'));
    this.#fd = openSync(join(this.#dir, 'bodies'), 'w+', 0o600);
  }

  /** Bytes written so far. */
  get size(): number {
    return this.#size;
  }

  /** How many bodies were read back (tests check that the judge reads a body only when it needs its text). */
  get reads(): number {
    return this.#reads;
  }

  /** Appends a body; returns where it is. */
  write(text: string): SpooledBody {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const sealed = Buffer.concat([iv, cipher.update(text, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    const at = { offset: this.#size, length: sealed.length };
    writeSync(this.#fd, sealed, 0, sealed.length, at.offset);
    this.#size += sealed.length;
    return at;
  }

  /** Reads a body back. @throws {Error} once the spool is closed, or when the file was tampered with. */
  read(at: SpooledBody): string {
    if (this.#closed) throw new Error('the observation is closed: its recorded bodies are gone');
    this.#reads++;
    // One buffer reused for every read, and the text decoded as it is deciphered: a read leaves no buffer behind.
    if (this.#scratch.length < at.length) this.#scratch = Buffer.allocUnsafe(Math.max(at.length, 2 * this.#scratch.length));
    const sealed = this.#scratch.subarray(0, at.length);
    readSync(this.#fd, sealed, 0, at.length, at.offset);
    const decipher = createDecipheriv('aes-256-gcm', this.#key, sealed.subarray(0, IV_BYTES));
    decipher.setAuthTag(sealed.subarray(at.length - TAG_BYTES));
    return decipher.update(sealed.subarray(IV_BYTES, at.length - TAG_BYTES), undefined, 'utf8') + decipher.final('utf8');
  }

  #scratch = Buffer.allocUnsafe(16 * 1024);

  /**
   * A copy of `part` (a request or a response) whose `body` is read from the spool when asked for (an enumerable
   * getter: the copy serializes as the original does).
   */
  spooled<T extends { readonly body: string }>(part: T): T {
    const at = this.write(part.body);
    const copy = { ...part };
    Object.defineProperty(copy, 'body', { get: () => this.read(at), enumerable: true, configurable: false });
    return copy;
  }

  /** Removes the file. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    closeSync(this.#fd);
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
