import type { Environment, TokenKind } from '../catalog/index.ts';

/** How the simulator answered one request: the facts client checks read from the event log. */
export type SimOutcome =
  | 'token-issued'
  | 'token-refused-syntax'
  | 'token-refused-credentials'
  | 'token-refused-request'
  | 'api-ok'
  | 'api-refused-token'
  | 'api-refused-access'
  | 'api-not-found'
  | 'soap-ok'
  | 'soap-fault'
  | 'not-found'
  | 'no-answer';

/** One request as the simulator saw it. Holds raw credentials: it never leaves the process unredacted. */
export interface SimEvent {
  readonly seq: number;
  /** Simulator time of the request, ms since the epoch. */
  readonly at: number;
  readonly env: Environment;
  readonly protocol: 'rest' | 'soap';
  readonly method: string;
  readonly path: string;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly status: number;
  readonly outcome: SimOutcome;
  /** The decoded REST Client ID, or the SOAP Username/Organization, when the request carried credentials. */
  readonly clientId?: string;
  /** The token the request presented. */
  readonly tokenUsed?: string;
  /** The token the response issued. */
  readonly tokenIssued?: string;
  readonly tokenKind?: TokenKind;
  /** The SOAP eb:Action, or the REST endpoint key. */
  readonly action?: string;
  readonly detail?: string;
  /**
   * The body of the answer when it was an error (HTTP status 400 or more), clipped: what the service told the client
   * (ERR-06 compares it with what the client reports). May quote a token (a SOAP fault does).
   */
  readonly answer?: string;
}

/** Event log with a bounded size (oldest entries dropped), so that long runs keep bounded memory. */
export class EventLog {
  #events: SimEvent[] = [];
  #seq = 0;
  #dropped = 0;
  constructor(private readonly max: number = 100_000) {}

  append(event: Omit<SimEvent, 'seq'>): SimEvent {
    const full: SimEvent = { seq: ++this.#seq, ...event };
    this.#events.push(full);
    if (this.#events.length > this.max) {
      const drop = Math.ceil(this.max / 10);
      this.#events.splice(0, drop);
      this.#dropped += drop;
    }
    return full;
  }
  /** Events with `seq` greater than `after` (all by default). */
  since(after = 0): readonly SimEvent[] {
    if (after <= 0) return [...this.#events];
    // Binary search (seq ascends): a client check polling the latest events costs the same however long the log is.
    let lo = 0;
    let hi = this.#events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.#events[mid] as SimEvent).seq > after) hi = mid;
      else lo = mid + 1;
    }
    return this.#events.slice(lo);
  }
  get lastSeq(): number {
    return this.#seq;
  }
  get dropped(): number {
    return this.#dropped;
  }
  clear(): void {
    this.#events = [];
  }
}
