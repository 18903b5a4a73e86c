import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-info.ts';
import { notYetCovered } from './coverage.ts';
import { rules } from './catalog.ts';
import { RULE_IDS, type RuleId } from './types.ts';

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => join(e.parentPath, e.name));
}

/** Rule IDs named by `ruleTest(…)` / `ruleProperty(…)` calls in the conformance suites. */
function taggedRuleIds(): Map<RuleId, string[]> {
  const tagged = new Map<RuleId, string[]>();
  for (const file of testFiles(join(PACKAGE_ROOT, 'suites'))) {
    const text = readFileSync(file, 'utf8');
    for (const call of text.matchAll(/\brule(?:Test|Property)\(\s*(\[[^\]]*\]|'[^']*')/g)) {
      for (const id of call[1]?.match(/[A-Z]+-\d\d/g) ?? []) {
        expect(RULE_IDS, `${file} tags a test with "${id}", which the catalog does not have`).toContain(id);
        tagged.set(id as RuleId, [...(tagged.get(id as RuleId) ?? []), file]);
      }
    }
  }
  return tagged;
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
    const md = readFileSync(join(PACKAGE_ROOT, '..', 'shared', 'design', 'RULES.md'), 'utf8');
    const rows = [...md.matchAll(/^\| ([A-Z]+-\d\d) \| (\w+) \| (\w+) \| ([\w-]+) \| (.*) \|$/gm)].map((m) => m.slice(1, 6));
    expect(rows.length).toBe(rules.length);
    expect(rules.map((r) => [r.id, r.side, r.level, r.where, r.statement])).toEqual(rows);
  });
});
