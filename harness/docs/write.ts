import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PACKAGE_ROOT } from '../package-info.ts';
import { mutants } from '../../fixtures/mutants/index.ts';
import { defects } from '../sim/defects.ts';
import { renderRulesMarkdown, type Breaker } from './rules-md.ts';
import { indexSuiteTests, testsByRule } from './test-index.ts';

export const RULES_MD = join(PACKAGE_ROOT, 'docs', 'rules.md');

/** The generated rules documentation as it should be now. */
export function currentRulesMarkdown(root: string = PACKAGE_ROOT): string {
  const breakers: Breaker[] = [
    ...defects.map((d) => ({ kind: 'defect' as const, id: d.id, breaks: d.breaks, description: d.description })),
    ...mutants.map((m) => ({ kind: 'mutant' as const, id: m.id, breaks: m.breaks, description: m.description })),
  ];
  return renderRulesMarkdown(testsByRule(indexSuiteTests(root)).byRule, breakers);
}

/** Writes docs/rules.md; returns whether it changed. */
export function writeRulesMarkdown(file: string = RULES_MD): boolean {
  const next = currentRulesMarkdown();
  let previous = '';
  try {
    previous = readFileSync(file, 'utf8');
  } catch {
    // first time
  }
  if (previous === next) return false;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, next);
  return true;
}
