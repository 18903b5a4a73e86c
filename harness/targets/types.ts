import type { Environment } from '../spec/index.ts';
import type { SimAccountInput, SimEvent } from '../sim/index.ts';
import type { TargetKnowledge } from './knowledge.ts';
import type { Transport } from './transport.ts';

export interface EnvironmentEndpoints {
  readonly restBaseUrl: string;
  readonly soapUrl: string;
}

/** Credentials of one environment, secrets resolved. */
export interface Account {
  /** EPR: the user ID of the REST Client ID and the SOAP Username. */
  readonly epr: string;
  /** PCC/iPCC: the REST group, the SOAP Organization, the eb:CPAId. */
  readonly pcc: string;
  readonly password: string;
  /** REST domain (`AA` by default). */
  readonly restDomain: string;
  /** SOAP domain (`DEFAULT` usually). */
  readonly soapDomain: string;
  /** Other values the service accepts in the REST Client ID's group for this account: its iPCC or organization (CRED-05). */
  readonly groupAlternatives?: readonly string[];
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
  /** Run opt-in rules (always true on the simulator). */
  readonly allowOptIn: boolean;
  readonly transport: Transport;
  /** Present when the target offers the simulator's control (clock, accounts, event log). */
  readonly control: SimControl | undefined;
  close(): Promise<void>;
}
