import type { AccountsByEnvironment, SimAccount } from './accounts.ts';
import { allAmendments, simAccount } from './accounts.ts';
import { Random } from './random.ts';

/** The accounts of a fresh simulator. Passwords are random per seed: they are secrets a report must never show. */
export interface DefaultAccounts {
  readonly accounts: AccountsByEnvironment;
  /** The account the checks use in each environment. Same EPR and PCC in both, other passwords (as real PROD). */
  readonly main: { readonly cert: SimAccount; readonly prod: SimAccount };
  /** Another agency (other PCC) allowed only the public lookup: for agency-specific access (ACCESS-02). */
  readonly otherAgency: SimAccount;
  /** An account without the air-shopping amendment (ACCESS-04). */
  readonly noAmendment: SimAccount;
  /** Developer-portal test credentials, CERT only (ACCESS-03). */
  readonly portal: SimAccount;
  /** An account that exists only in CERT (ENV-03). */
  readonly certOnly: SimAccount;
}

export function password(random: Random): string {
  return `Ws${random.chars('ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789', 10)}!`;
}

/** The main account's pool and inactivity timeout, where a latitude profile sets them. */
export interface MainAccountShape {
  readonly poolSize?: number;
  readonly sessionTimeoutSeconds?: number;
}

export function defaultAccounts(seed = 1, shape: MainAccountShape = {}): DefaultAccounts {
  const random = new Random(seed ^ 0x5eed);
  const amendments = allAmendments();
  // The main account's organization is also accepted as its Client ID's group (CRED-05).
  const cert = simAccount({ epr: '7971', pcc: 'Z2NL', password: password(random), amendments, groupAlternatives: ['7TZA'], ...shape });
  const prod = simAccount({ epr: '7971', pcc: 'Z2NL', password: password(random), amendments, groupAlternatives: ['7TZA'], ...shape });
  const otherAgency = simAccount({ epr: '4402', pcc: 'K9QA', password: password(random), apis: ['shop-themes'], amendments });
  const noAmendment = simAccount({ epr: '5150', pcc: 'B7TT', password: password(random) });
  const portal = simAccount({ epr: 'devportal01', pcc: 'DEVCENTER', password: password(random), restDomain: 'EXT', portal: true });
  const certOnly = simAccount({ epr: '6610', pcc: 'C3RT', password: password(random), amendments });
  return {
    accounts: { cert: [cert, otherAgency, noAmendment, portal, certOnly], prod: [prod] },
    main: { cert, prod },
    otherAgency,
    noAmendment,
    portal,
    certOnly,
  };
}
