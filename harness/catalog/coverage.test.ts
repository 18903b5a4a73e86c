import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexSuiteTests, testsByRule } from '../docs/test-index.ts';
import { PACKAGE_ROOT } from '../package-info.ts';
import { notYetCovered } from './coverage.ts';
import { getRule, isRuleId, prerequisitesOf, rules } from './catalog.ts';
import { findLatitude, latitudes } from './latitudes.ts';
import { RULE_IDS, type RuleId } from './types.ts';

/** Rule IDs named by `ruleTest(…)` / `ruleProperty(…)` calls in the conformance suites. */
function taggedRuleIds(): Map<RuleId, unknown[]> {
  const { byRule, unknown } = testsByRule(indexSuiteTests(PACKAGE_ROOT));
  expect(unknown, 'suite tests tagged with IDs the catalog does not have').toEqual([]);
  return byRule;
}

describe('rule coverage', () => {
  const tagged = taggedRuleIds();

  it('every catalog rule has a tagged conformance test, or waits in the "not yet covered" list', () => {
    const missing = rules.filter((r) => !tagged.has(r.id) && !(r.id in notYetCovered)).map((r) => r.id);
    expect(missing).toEqual([]);
  });

  it('the "not yet covered" list only shrinks: a rule with a test must leave it', () => {
    const stale = Object.keys(notYetCovered).filter((id) => tagged.has(id as RuleId));
    expect(stale).toEqual([]);
  });
});

describe('rule catalog', () => {
  it('holds every rule of RULES.md once, in order, with its quote and section', () => {
    expect(rules.map((r) => r.id)).toEqual([...RULE_IDS]);
    for (const r of rules) {
      expect(r.source.quote.length, r.id).toBeGreaterThan(10);
      expect(r.source.section.length, r.id).toBeGreaterThan(3);
      expect(r.id.startsWith(`${r.area}-`), r.id).toBe(true);
    }
  });

  it('matches RULES.md row for row (ID, side, level, where, statement)', () => {
    // A copy of the design's rule catalog, kept in the repository: tests read nothing outside it.
    const md = readFileSync(join(PACKAGE_ROOT, 'harness', 'catalog', 'RULES.md'), 'utf8');
    const rows = [...md.matchAll(/^\| ([A-Z]+-\d\d) \| (\w+) \| (\w+) \| ([\w-]+) \| (.*) \|$/gm)].map((m) => m.slice(1, 6));
    expect(rows.length).toBe(rules.length);
    expect(rules.map((r) => [r.id, r.side, r.level, r.where, r.statement])).toEqual(rows);
  });
});

describe('clauses and latitudes', () => {
  it('every rule has clauses, named <rule ID>.<slug>, unique', () => {
    const ids = rules.flatMap((r) => r.clauses.map((c) => c.id));
    for (const r of rules) {
      expect(r.clauses.length, r.id).toBeGreaterThan(0);
      for (const c of r.clauses) expect(c.id, r.id).toMatch(new RegExp(`^${r.id}\\.[a-z0-9-]+$`));
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('every latitude a rule names exists, with the sentence or silence that allows it', () => {
    for (const r of rules) for (const id of r.latitudes) expect(findLatitude(id), `${r.id} names ${id}`).toBeDefined();
    for (const l of latitudes) {
      expect(l.basis.length, l.id).toBeGreaterThan(10);
      expect(rules.some((r) => r.latitudes.includes(l.id)), `${l.id} is named by no rule`).toBe(true);
    }
  });
});

describe('dependsOn (what each rule builds on)', () => {
  it('names rules of the catalog, never the rule itself, each once', () => {
    for (const rule of rules) {
      for (const dep of rule.dependsOn) expect(isRuleId(dep), `${rule.id} depends on ${dep}`).toBe(true);
      expect(rule.dependsOn, rule.id).not.toContain(rule.id);
      expect(new Set(rule.dependsOn).size, rule.id).toBe(rule.dependsOn.length);
    }
  });

  it('closes over what the rules build on, in catalog order, without the rules themselves', () => {
    // API-02 builds on API-01, which builds on CRED-03 and REST-03.
    expect(getRule('API-02').dependsOn).toContain('API-01');
    const closure = prerequisitesOf(['API-02']);
    expect(closure).toEqual(expect.arrayContaining(['CRED-03', 'REST-03', 'API-01']));
    expect(closure).not.toContain('API-02');
    const order = rules.map((r) => r.id);
    expect([...closure].sort((a, b) => order.indexOf(a) - order.indexOf(b))).toEqual(closure);
    expect(prerequisitesOf(['CRED-03'])).toEqual([]);
  });
});
