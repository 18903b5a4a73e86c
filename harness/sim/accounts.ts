import { buildClientId, clientIdFor } from '../credentials/index.ts';
import { DEFAULT_REST_DOMAIN, DEFAULT_SOAP_DOMAIN, limits, restEndpoints, type Environment } from '../catalog/index.ts';

/**
 * An account as the simulator holds it. Credentials are issued per environment: an account exists in the
 * environments it is listed for, and nowhere else (ENV-03).
 */
export interface SimAccount {
  /** The user ID / EPR. */
  readonly epr: string;
  /** The PCC / iPCC (the REST "group", the SOAP Organization, the eb:CPAId). */
  readonly pcc: string;
  readonly password: string;
  readonly restDomain: string;
  readonly soapDomain: string;
  /** Inactivity timeout of this account's sessions. */
  readonly sessionTimeoutSeconds: number;
  /** Size of this account's session pool. */
  readonly poolSize: number;
  /** Keys of the REST endpoints (and SOAP actions) the agency may call; `'*'` for all that need no amendment. */
  readonly apis: readonly string[] | '*';
  /** Contractual amendments the account holds (ACCESS-04). */
  readonly amendments: readonly string[];
  /** Developer-portal test credentials: only the public REST APIs of CERT (ACCESS-03). */
  readonly portal: boolean;
  /** The account's iPCC or organization: also accepted as the REST Client ID's group (CRED-05). */
  readonly groupAlternatives?: readonly string[];
}

export type SimAccountInput = Pick<SimAccount, 'epr' | 'pcc' | 'password'> & Partial<SimAccount>;

export function simAccount(input: SimAccountInput): SimAccount {
  return {
    restDomain: DEFAULT_REST_DOMAIN,
    soapDomain: DEFAULT_SOAP_DOMAIN,
    sessionTimeoutSeconds: limits.defaultSessionTimeoutSeconds,
    poolSize: 4,
    apis: '*',
    amendments: [],
    portal: false,
    ...input,
  };
}

export function allAmendments(): string[] {
  return [...new Set(restEndpoints.flatMap((e) => (e.amendment ? [e.amendment] : [])))];
}

export type AccountsByEnvironment = Readonly<Record<Environment, readonly SimAccount[]>>;

const NONE: readonly SimAccount[] = [];

/** A REST Client ID's entry: an account under its own group, or under one of its alternative groups (CRED-05). */
interface RestEntry {
  readonly account: SimAccount;
  readonly alternative: boolean;
}
const NO_ENTRIES: readonly RestEntry[] = [];

/**
 * The accounts of one environment by the logins that find them: the REST Client ID, and the SOAP Username,
 * Organization and Domain. Each list keeps the order the accounts were added in (the first match wins, as in a scan).
 */
export class AccountIndex {
  /** By REST Client ID, in the order added: each account under its own group, and under its alternative groups. */
  #rest = new Map<string, RestEntry[]>();
  #soap = new Map<string, SimAccount[]>();

  add(account: SimAccount): void {
    push(this.#rest, buildClientId(clientIdFor(account)), { account, alternative: false });
    for (const group of account.groupAlternatives ?? []) push(this.#rest, buildClientId(clientIdFor({ ...account, pcc: group })), { account, alternative: true });
    push(this.#soap, soapKey(account.epr, account.pcc, account.soapDomain), account);
  }
  /**
   * The first account whose REST Client ID is `clientId` and that `matches`, in the order added. An account found
   * through its iPCC or organization as the Client ID's group (CRED-05) counts only if `alternatives()` says so, which
   * is asked only when such an entry comes up before a match.
   */
  findRest(clientId: string, matches: (account: SimAccount) => boolean, alternatives: () => boolean): SimAccount | undefined {
    let allowed: boolean | undefined;
    for (const entry of this.#rest.get(clientId) ?? NO_ENTRIES) {
      if (entry.alternative && !(allowed ??= alternatives())) continue;
      if (matches(entry.account)) return entry.account;
    }
    return undefined;
  }
  /** The accounts with this SOAP Username (EPR), Organization (PCC) and Domain. */
  soap(username: string, organization: string, domain: string | undefined): readonly SimAccount[] {
    return this.#soap.get(soapKey(username, organization, domain)) ?? NONE;
  }
}

function soapKey(epr: string, pcc: string, domain: string | undefined): string {
  return JSON.stringify([epr, pcc, domain ?? null]);
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
