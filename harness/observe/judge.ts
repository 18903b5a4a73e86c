/**
 * Judging recorded traffic: the client rules and the service rules the answers show, from the exchanges of an
 * observation or a HAR file, into the report model of `run`.
 */
import { createValidator, type EnvelopeValidator } from '../soap/index.ts';
import { rules, type RuleId } from '../catalog/index.ts';
import { judgeClientRules } from './client-rules.ts';
import type { JudgeContext, ObservedExchange } from './exchange.ts';
import { judgeServiceRules, OBSERVABLE_SERVICE_RULES } from './service-rules.ts';
import { Traffic } from './traffic.ts';
import type { ClauseVerdict } from './verdict.ts';

/** Every rule judged from traffic: the client rules, then the service rules the answers show, in catalog order. */
export const OBSERVED_RULES: readonly RuleId[] = rules
  .filter((r) => r.side === 'client' || (OBSERVABLE_SERVICE_RULES as readonly string[]).includes(r.id))
  .map((r) => r.id);

export interface JudgeOptions {
  /** The schema validator (a JVM); without it the schema clauses are `not-applicable`. */
  readonly validator?: EnvelopeValidator | undefined;
  /** Only these rules (default: every rule of {@link OBSERVED_RULES}). */
  readonly only?: readonly RuleId[] | undefined;
}

export interface Judgement {
  readonly verdicts: readonly ClauseVerdict[];
  /** The rules judged. */
  readonly selection: readonly RuleId[];
}

/** Judges the traffic: one verdict per clause of every selected rule. */
export async function judgeTraffic(exchanges: readonly ObservedExchange[], ctx: JudgeContext, options: JudgeOptions = {}): Promise<Judgement> {
  const traffic = new Traffic(exchanges, ctx);
  const v = options.validator;
  const all = [
    ...(await judgeClientRules(traffic, v && ((xml, schema) => v.validate(xml, schema)))),
    ...(await judgeServiceRules(traffic, v && ((xml, schema) => v.validate(xml, schema)))),
  ];
  const selection = options.only ? OBSERVED_RULES.filter((id) => options.only!.includes(id)) : OBSERVED_RULES;
  const ruleOf = (clause: string) => clause.slice(0, clause.indexOf('.'));
  return { verdicts: all.filter((c) => selection.includes(ruleOf(c.clause) as RuleId)), selection };
}

/**
 * Starts the schema validator: libxml2 compiled to WebAssembly, in this process, as a run validates (no JVM to start,
 * no JDK needed; the same verdicts as the JVM on every golden envelope, harness/soap/in-process-validator.test.ts);
 * the JVM helper if that cannot load; `undefined` when neither starts: the schema clauses then say so.
 */
export async function tryValidator(): Promise<EnvelopeValidator | undefined> {
  try {
    const { inProcessEnvelopeValidator } = await import('../soap/in-process-validator.ts');
    return inProcessEnvelopeValidator();
  } catch {
    try {
      return await createValidator();
    } catch {
      return undefined;
    }
  }
}
