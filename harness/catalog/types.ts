/**
 * Types of the rule catalog. The catalog is data: no module under `harness/catalog` does I/O.
 * @see ./RULES.md (a copy of the design catalog)
 */

/** `service`: checked by talking to a service. `client`: checked by watching a client talk to the simulator. */
export type Side = 'service' | 'client';

/**
 * `MUST`: stated by the interface document; a violation is a failure.
 * `SHOULD`: RFC 6749 or the document's intent; a violation is a warning.
 * `INFO`: not shown in the document; the observed value is recorded and never fails the run.
 */
export type Level = 'MUST' | 'SHOULD' | 'INFO';

/**
 * `any`: runs against every target. `sim`: needs control of the target's clock or internals.
 * `opt-in`: runs on a live target only when the user allows it.
 */
export type Where = 'any' | 'sim' | 'opt-in';

export const AREA_IDS = ['CRED', 'REST', 'API', 'LIFE', 'SOAP', 'STOK', 'SESS', 'ENV', 'XPROTO', 'ACCESS', 'ERR'] as const;
export type AreaId = (typeof AREA_IDS)[number];

export const RULE_IDS = [
  'CRED-01', 'CRED-02', 'CRED-03', 'CRED-04', 'CRED-05',
  'REST-01', 'REST-02', 'REST-03', 'REST-04', 'REST-05',
  'API-01', 'API-02', 'API-03', 'API-04', 'API-05',
  'LIFE-01', 'LIFE-02', 'LIFE-03',
  'SOAP-01', 'SOAP-02', 'SOAP-03', 'SOAP-04', 'SOAP-05',
  'STOK-01', 'STOK-02', 'STOK-03',
  'SESS-01', 'SESS-02', 'SESS-03', 'SESS-04', 'SESS-05', 'SESS-06', 'SESS-07', 'SESS-08',
  'ENV-01', 'ENV-02', 'ENV-03',
  'XPROTO-01', 'XPROTO-02', 'XPROTO-03',
  'ACCESS-01', 'ACCESS-02', 'ACCESS-03', 'ACCESS-04',
  'ERR-01', 'ERR-02', 'ERR-03', 'ERR-04', 'ERR-05', 'ERR-06', 'ERR-07',
] as const;
/** A stable rule ID. IDs never change meaning once used; new rules get new IDs. */
export type RuleId = (typeof RULE_IDS)[number];

export interface Area {
  readonly id: AreaId;
  readonly title: string;
}

/** Where the interface document states the rule. */
export interface SourceRef {
  /** Section path in the interface document, e.g. `Errors › REST token endpoint`. */
  readonly section: string;
  /** The sentence (or table row) of the document the rule rests on, quoted. */
  readonly quote: string;
}

/**
 * One thing a rule requires, checked on its own. A rule is `pass` only when each of its clauses was checked on the
 * target and held; a clause that could not be exercised there is reported unchecked, with the reason.
 */
export interface Clause {
  /** `<rule ID>.<slug>`, stable: reports and checks name clauses by it (`SESS-04.timeout-frees-slot`). */
  readonly id: string;
  /** What must hold, as a sentence. */
  readonly text: string;
  /** What exercising the clause takes beyond a plain target, where it takes more (the docs say so). */
  readonly needs?: string;
}

/**
 * A freedom the interface document leaves a conforming subject: the checks of the rule must accept every choice
 * within it. The simulator's latitude profiles (`harness/sim/latitude.ts`) vary them.
 */
export interface Latitude {
  /** Stable key, shared by the rules it concerns (`soap-prefixes`). */
  readonly id: string;
  /** What a conforming subject is free to do. */
  readonly text: string;
  /** The sentence of the document that allows it, quoted, or the silence (`not shown: …`). */
  readonly basis: string;
  /**
   * Whose freedom it is: a service's (the default; the simulator's latitude profiles vary each one) or a client's
   * (the client judges grant it, and their unit tests show it).
   */
  readonly side?: 'service' | 'client';
}

export interface Rule {
  readonly id: RuleId;
  readonly area: AreaId;
  readonly side: Side;
  readonly level: Level;
  readonly where: Where;
  /** The rule as the harness checks it (RULES.md wording). */
  readonly statement: string;
  readonly source: SourceRef;
  /** An outside reference the rule also rests on (SHOULD rules), e.g. `RFC 6749 §5.1`. */
  readonly see?: string;
  /** What the rule requires, clause by clause (at least one). */
  readonly clauses: readonly Clause[];
  /**
   * The rules whose checks judge what this rule's checks build on (a token by some route, a session, a probe that
   * answers): when one of them is broken, a check of this rule that cannot get what it needs is `skipped` after it,
   * not failed (cache-tests' `depends_on`). The report names the first of them that failed in the run.
   */
  readonly dependsOn: readonly RuleId[];
  /** The IDs of the latitudes (see `latitudes.ts`) its checks must accept. */
  readonly latitudes: readonly string[];
}

export type Environment = 'cert' | 'prod';
export type TokenKind = 'sessionless' | 'session';
