import type { Environment } from '../catalog/index.ts';
import type { SimAccountInput, SimEvent } from '../sim/index.ts';
import type { Account } from './account.ts';
import type { TargetKnowledge } from './knowledge.ts';

export type { Account } from './account.ts';
import type { Transport } from './transport.ts';

export interface EnvironmentEndpoints {
  readonly restBaseUrl: string;
  readonly soapUrl: string;
}

/** Accounts the simulator has besides the main ones, for the access rules (sim targets only). */
export interface SimExtraAccounts {
  readonly otherAgency: Account;
  readonly noAmendment: Account;
  readonly portal: Account;
  readonly certOnly: Account;
}

/** What only a simulator target can do: move its clock, add accounts, show what callers did. */
export interface SimControl {
  advanceClock(seconds: number): Promise<void>;
  /** How far the clock has been moved forward in all, in seconds (the target's time is the real time plus this). */
  readonly advancedSeconds: number;
  /** Adds an account; permissions (APIs, amendments) not given are the main account's. */
  addAccount(env: Environment, account: SimAccountInput): Promise<void>;
  /** Events after sequence number `after`. */
  events(after?: number): Promise<readonly SimEvent[]>;
  /** The sequence number of the latest event (0 before any). */
  lastEventSeq(): Promise<number>;
  openSessions(): Promise<number>;
  /** Makes the service refuse a token from now on, as if it expired or the service dropped it (fault injection). */
  revokeToken(token: string): Promise<boolean>;
  readonly extraAccounts: SimExtraAccounts;
}

/**
 * What the checks run against: the built-in simulator or a live environment. Its `probes`, `faultCodes` and
 * `declared` say what the document leaves to each API's reference (see `knowledge.ts`).
 */
export interface Target extends TargetKnowledge {
  readonly name: string;
  readonly kind: 'sim' | 'live';
  readonly environments: Readonly<Partial<Record<Environment, EnvironmentEndpoints>>>;
  readonly accounts: Readonly<Partial<Record<Environment, Account>>>;
  readonly sessionPoolSize: number | undefined;
  readonly sessionTimeoutSeconds: number;
  /**
   * How long the service may take to release a session's pool slot after acknowledging its close or at its timeout
   * (milliseconds): a live target's `slotReleaseMs`, 3 s by default; 0 on the simulator, which releases the slot as it
   * answers.
   */
  readonly slotReleaseMs: number;
  /** Run opt-in rules (always true on the simulator). */
  readonly allowOptIn: boolean;
  readonly transport: Transport;
  /** Present when the target offers the simulator's control (clock, accounts, event log). */
  readonly control: SimControl | undefined;
  close(): Promise<void>;
}
