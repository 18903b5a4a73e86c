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
