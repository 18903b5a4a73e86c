import * as access from './rules/access.ts';
import * as api from './rules/api.ts';
import * as cred from './rules/cred.ts';
import * as env from './rules/env.ts';
import * as err from './rules/err.ts';
import * as life from './rules/life.ts';
import * as rest from './rules/rest.ts';
import * as sess from './rules/sess.ts';
import * as soap from './rules/soap.ts';
import * as stok from './rules/stok.ts';
import * as xproto from './rules/xproto.ts';
import { RULE_IDS, type Area, type AreaId, type Clause, type Rule, type RuleId } from './types.ts';

const modules = [cred, rest, api, life, soap, stok, sess, env, xproto, access, err] as const;

/** The rule areas in catalog order. */
export const areas: readonly Area[] = modules.map((m) => m.area);

/** Every rule of the catalog, in catalog order (the order of RULES.md). */
export const rules: readonly Rule[] = modules.flatMap((m) => m.rules);

const byId = new Map<string, Rule>(rules.map((r) => [r.id, r]));

export function isRuleId(value: string): value is RuleId {
  return byId.has(value);
}

/** The rule with this ID; throws for an ID the catalog does not have. */
export function getRule(id: RuleId): Rule {
  const rule = byId.get(id);
  if (!rule) throw new Error(`rule "${id}" is not in the catalog`);
  return rule;
}

/**
 * What the rules build on, transitively (each rule's `dependsOn`, theirs, and so on), in catalog order, without the
 * rules themselves: the rules after which a check of theirs may be skipped.
 */
export function prerequisitesOf(ids: readonly RuleId[]): RuleId[] {
  const seen = new Set<RuleId>();
  const queue = [...ids];
  while (queue.length > 0) {
    for (const dep of getRule(queue.pop()!).dependsOn) {
      if (!seen.has(dep)) {
        seen.add(dep);
        queue.push(dep);
      }
    }
  }
  return rules.map((r) => r.id).filter((id) => seen.has(id) && !ids.includes(id));
}

export function getArea(id: AreaId): Area {
  const area = areas.find((a) => a.id === id);
  if (!area) throw new Error(`area "${id}" is not in the catalog`);
  return area;
}

/**
 * Rule IDs matching a selector: an exact ID (`REST-03`), an area (`REST`), or a glob with `*` (`SESS-0*`, `*-01`).
 * Returns an empty list for a selector that matches nothing.
 */
export function matchRules(selector: string): RuleId[] {
  const s = selector.trim().toUpperCase();
  if (/^[A-Z]+$/.test(s)) return rules.filter((r) => r.area === s).map((r) => r.id);
  const re = new RegExp(`^${s.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
  return RULE_IDS.filter((id) => re.test(id));
}

/** Extracts the rule IDs a test title names: `REST-03, REST-05: …` → `['REST-03', 'REST-05']`. */
export function ruleIdsInTitle(title: string): RuleId[] {
  const head = /^\s*((?:[A-Z]+-\d\d)(?:\s*[,+&]\s*[A-Z]+-\d\d)*)\s*:/.exec(title);
  if (!head?.[1]) return [];
  return head[1].split(/\s*[,+&]\s*/).filter(isRuleId);
}

const clausesById = new Map<string, { rule: Rule; clause: Clause }>(rules.flatMap((rule) => rule.clauses.map((clause) => [clause.id, { rule, clause }] as const)));

/** The clause with this ID (`SESS-04.timeout-frees-slot`), or `undefined`. */
export function findClause(id: string): { readonly rule: Rule; readonly clause: Clause } | undefined {
  return clausesById.get(id);
}

/** Every clause ID of the rules, in catalog order: what a check that exercises all of them declares. */
export function allClauses(...ids: readonly RuleId[]): string[] {
  return ids.flatMap((id) => getRule(id).clauses.map((c) => c.id));
}
