import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rules, stateTables } from '../catalog/index.ts';
import { renderRulesMarkdown } from './rules-md.ts';
import { currentRulesMarkdown, RULES_MD } from './write.ts';
import { indexSuiteTests, isSuiteTitle } from './test-index.ts';
import { PACKAGE_ROOT } from '../package-info.ts';

describe('docs/rules.md', () => {
  it('is fresh: regenerate it with "npx tds-conformance docs" when the spec or the suites change', () => {
    let committed = '';
    try {
      committed = readFileSync(RULES_MD, 'utf8');
    } catch {
      // missing counts as stale
    }
    expect(committed === currentRulesMarkdown(), 'docs/rules.md is stale: run "npx tds-conformance docs" and commit it').toBe(true);
  });

  it('lists every rule with its level, side, where, quote and section', () => {
    const md = renderRulesMarkdown(new Map());
    for (const r of rules) {
      expect(md).toContain(`### ${r.id}\n\n**${r.level}** · ${r.side} · where: \`${r.where}\``);
      expect(md).toContain(`> ${r.source.quote}`);
      expect(md).toContain(`*${r.source.section}*`);
    }
  });

  it('draws a state diagram for each state table, with every transition', () => {
    const md = renderRulesMarkdown(new Map());
    expect(md.match(/```mermaid\nstateDiagram-v2/g)?.length).toBe(stateTables.length);
    expect(md).toContain('[*] --> open');
    expect(md).toContain('open --> closed');
    expect(md).toContain('valid --> expired');
  });

  it('names the tests that verify a rule', () => {
    const md = renderRulesMarkdown(new Map([['REST-03', [{ ids: ['REST-03'], title: 'a title', file: 'suites/service/x.test.ts', line: 3 }]]]));
    expect(md).toContain('- `suites/service/x.test.ts` — REST-03: a title');
  });

  it('indexes the session model\'s checks (modelCheck) with the rule they judge, so that --only LIFE-01 runs the LIFE-01 one', () => {
    const tests = indexSuiteTests(PACKAGE_ROOT).filter((t) => t.file.endsWith('sessions.test.ts') && t.title.startsWith('random sequences'));
    expect(tests.map((t) => t.ids[0]).sort()).toEqual(['LIFE-01', 'SESS-01', 'SESS-02', 'SESS-03', 'SESS-04']);
  });

  it('knows a check by its full title, as a replay line names it: plain, an audit of any file\'s scope, a model check', () => {
    expect(isSuiteTitle(PACKAGE_ROOT, 'REST-03: a valid request gets access_token, token_type "bearer" and expires_in 604800')).toBe(true);
    expect(isSuiteTitle(PACKAGE_ROOT, 'SOAP-02: every SOAP answer to the access checks validates, carries an action, echoes ConversationId and refers to the request MessageId')).toBe(true);
    expect(isSuiteTitle(PACKAGE_ROOT, 'LIFE-01: random sequences of session and token operations: a TokenCreateRQ token lives for expires_in seconds')).toBe(true);
    expect(isSuiteTitle(PACKAGE_ROOT, 'REST-03: a valid request gets a token')).toBe(false);
    expect(isSuiteTitle(PACKAGE_ROOT, 'SOAP-02: every SOAP answer to the access checks')).toBe(false);
  });
});
