import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RULE_IDS, type RuleId } from '../catalog/index.ts';

/** A conformance test as written in a suite file: its rule IDs and title. */
export interface IndexedTest {
  readonly ids: readonly string[];
  readonly title: string;
  /** Path relative to the package root. */
  readonly file: string;
  readonly line: number;
}

function testFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && /\.test\.[jt]s$/.test(e.name))
      .map((e) => join(e.parentPath, e.name))
      .sort();
  } catch {
    return [];
  }
}

/**
 * A check's definition in a suite's source: its rule IDs (a literal or an array of literals) and its title. `modelCheck`
 * (the session model's check of one rule) is a ruleProperty under another name.
 */
const CALL = /\b(?:(?:rule|client)(?:Test|Property)|modelCheck)\(\s*(\[[^\]]*\]|'[^']*')\s*,\s*(?:'((?:[^'\\]|\\.)*)'|`([^`]*)`)/g;

/**
 * What each suite file held when it was last read, by its path under a root: read again only when its size or time of
 * change differ. A session reads the index at every run's start (harness/run/selection.ts), and a self-test or the
 * latitude property makes hundreds of runs: reading and matching every suite file each time took 0.15-0.25 s of CPU in
 * each of a run of the tests' sessions, 1 s in the latitude property's file.
 */
const read = new Map<string, { readonly size: number; readonly mtimeMs: number; readonly tests: readonly IndexedTest[] }>();

/**
 * The `ruleTest`, `ruleProperty`, `clientTest`, `clientProperty` and `modelCheck` calls of the suites, read from their source: the rule IDs (a literal or an
 * array of literals) and the title that follows.
 */
export function indexSuiteTests(root: string): IndexedTest[] {
  const out: IndexedTest[] = [];
  for (const file of testFiles(join(root, 'suites'))) {
    const key = `${root}\0${file}`;
    const { size, mtimeMs } = statSync(file);
    const known = read.get(key);
    if (known && known.size === size && known.mtimeMs === mtimeMs) {
      out.push(...known.tests);
      continue;
    }
    const text = readFileSync(file, 'utf8');
    const tests: IndexedTest[] = [];
    for (const m of text.matchAll(CALL)) {
      tests.push({
        ids: m[1]?.match(/[A-Z]+-\d\d/g) ?? [],
        title: (m[2] ?? m[3] ?? '').replace(/\\'/g, "'"),
        file: relative(root, file),
        line: text.slice(0, m.index).split('\n').length,
      });
    }
    read.set(key, { size, mtimeMs, tests });
    out.push(...tests);
  }
  return out;
}

/** Tests per rule ID; IDs that the catalog does not have are returned apart. */
export function testsByRule(tests: readonly IndexedTest[]): { byRule: Map<RuleId, IndexedTest[]>; unknown: string[] } {
  const byRule = new Map<RuleId, IndexedTest[]>();
  const unknown: string[] = [];
  for (const t of tests) {
    for (const id of t.ids) {
      if (!(RULE_IDS as readonly string[]).includes(id)) unknown.push(`${id} (${t.file}:${t.line})`);
      else byRule.set(id as RuleId, [...(byRule.get(id as RuleId) ?? []), t]);
    }
  }
  return { byRule, unknown };
}


/**
 * Whether a check's full title (`<rule IDs>: <title>`, as a report and a replay line name it) is one the suites define:
 * the titles of the suite files and of their support files (an audit's `every … answer to the ${scope}` matches any
 * scope). `true` when the suites cannot be read, so that nothing is refused for want of them.
 */
export function isSuiteTitle(root: string, title: string): boolean {
  let files: string[];
  try {
    files = readdirSync(join(root, 'suites'), { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && /\.[jt]s$/.test(e.name) && !e.name.endsWith('.d.ts'))
      .map((e) => join(e.parentPath, e.name));
  } catch {
    return true;
  }
  let seen = 0;
  for (const file of files) {
    for (const m of readFileSync(file, 'utf8').matchAll(CALL)) {
      seen++;
      const full = `${(m[1]?.match(/[A-Z]+-\d\d/g) ?? []).join(', ')}: ${(m[2] ?? m[3] ?? '').replace(/\\'/g, "'")}`;
      if (full === title) return true;
      if (m[3] !== undefined && full.includes('${')) {
        const pattern = full.split(/\$\{[^}]*\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]+');
        if (new RegExp(`^${pattern}$`).test(title)) return true;
      }
    }
  }
  return seen === 0;
}
