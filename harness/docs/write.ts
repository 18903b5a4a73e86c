import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PACKAGE_ROOT } from '../package-info.ts';
import { renderRulesMarkdown } from './rules-md.ts';
import { indexSuiteTests, testsByRule } from './test-index.ts';

export const RULES_MD = join(PACKAGE_ROOT, 'docs', 'rules.md');

/** The generated rules documentation as it should be now. */
export function currentRulesMarkdown(root: string = PACKAGE_ROOT): string {
  return renderRulesMarkdown(testsByRule(indexSuiteTests(root)).byRule);
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
