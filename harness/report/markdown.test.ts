import { describe, expect, it } from 'vitest';
import { areas } from '../catalog/index.ts';
import { applyBaseline } from './baseline.ts';
import { renderMarkdown } from './markdown.ts';
import { sampleReport } from '../../test/support/report.ts';

describe('renderMarkdown', () => {
  const secret = 'not-really-secret';
  const md = renderMarkdown(sampleReport(secret));
  const section = (heading: string): string => {
    const start = md.indexOf(`\n${heading}\n`);
    if (start < 0) throw new Error(`no heading "${heading}"`);
    const next = md.indexOf('\n### ', start + heading.length + 2);
    return md.slice(start, next < 0 ? undefined : next);
  };

  it('starts with the run and its summary', () => {
    expect(md.startsWith('# Conformance report: simulator (sim)\n')).toBe(true);
    expect(md).toContain('| seed | 42 (25 runs per property) |');
    expect(md).toContain('| exit code | 1 |');
    expect(md).toContain('| pass | partial | fail | warn | info | skipped | not applicable | error | not selected |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n| 1 | 0 | 1 | 1 | 1 | 45 | 1 | 1 | 0 |');
  });

  it('counts and shows the rules the run did not select apart from the rules skipped for a reason', () => {
    const selected = renderMarkdown(sampleReport(secret, ['REST-02', 'REST-03', 'CRED-01']));
    // CRED-01 is selected but no test names it: skipped for a reason. The other 48 rules were not selected.
    expect(selected).toContain('| 1 | 0 | 1 | 0 | 0 | 1 | 0 | 0 | 48 |');
    expect(selected).toContain('| CRED-01 | client | MUST | any | skipped | 0 | no check verifies this rule yet |');
    expect(selected).toContain('| CRED-02 | client | MUST | any | not selected | 0 |  |');
    expect(selected).toContain('| REST-05 | service | SHOULD | any | not selected | 0 |  |');
  });

  it('has a table per area with a row per rule', () => {
    for (const area of areas) expect(md).toContain(`### ${area.id}: ${area.title}\n\n| rule | side | level | where | status | checks | note |`);
    expect(md).toContain('| CRED-01 | client | MUST | any | skipped | 0 | no check verifies this rule yet |');
    expect(md).toContain('| REST-03 | service | MUST | any | **fail** | 1 | unexpected "token_type" value &lt;bearer&gt; \\| not-really-secret |');
  });

  it('details each failing, warning and errored rule with fenced blocks', () => {
    const rest03 = section('### REST-03 (MUST): fail');
    expect(rest03).toContain('> A valid request is answered with a JSON object: `access_token` a non-empty string');
    // The sentence of the interface document the rule rests on (principle 1: a failure quotes it).
    expect(rest03).toContain('The interface document (Resources and their fields › Access token response (REST)): “access_token: The token to send');
    expect(rest03).toContain('#### REST-03: a valid request gets a token\n\nin `suites/service/x.test.ts`');
    expect(rest03).toContain('**expected**\n\n```text\n"bearer"\n```');
    expect(rest03).toContain(`**actual**\n\n\`\`\`text\n"Bearer" ${secret}\n\`\`\``);
    expect(rest03).toContain(`**counterexample**\n\n\`\`\`text\n[{"password":"${secret}"}]\n\`\`\``);
    expect(rest03).toContain('seed 42, path `3:1`');
    expect(rest03).toContain("**replay**\n\n```sh\nnpx tds-conformance run --only REST-03 --seed 42 --replay 'REST-03: a valid request gets a token@3:1'\n```");
    // The evidence holds ``` itself, so its fence is longer.
    expect(rest03).toMatch(/\*\*evidence\*\*\n\n````text\nPOST \/v2\/auth\/token\n[\s\S]*``` fence\n````\n/);
    expect(section('### REST-05 (SHOULD): warn')).toContain('**expected**\n\n```text\n200\n```');
    expect(section('### API-01 (MUST): error')).toContain(`TARGET_UNREACHABLE: cannot reach https://user:${secret}@cert.example`);
  });

  it('lists observations and run errors', () => {
    expect(md).toContain('## Observations (INFO rules)\n\n- **ERR-05** ERR-05: SOAP fault status: observed: 500 (publicly seen: 500; the same)');
    expect(md).toContain(`## Run errors\n\n- \`TEST_FILE_FAILED\`: suites/x.test.ts: ${secret}`);
  });

  it('ends with a single newline and has no runs of blank lines', () => {
    expect(md.endsWith('\n')).toBe(true);
    expect(md.endsWith('\n\n')).toBe(false);
    expect(md).not.toMatch(/\n{3}/);
  });

  it('marks known failures and shows the baseline\'s verdict', () => {
    const { report } = applyBaseline(sampleReport(secret), { knownFailures: [{ rule: 'REST-03' }, { rule: 'REST-02' }] }, 'known.json');
    const known = renderMarkdown(report);
    expect(known).toContain('| REST-03 | service | MUST | any | fail (known) | 1 |');
    expect(known).toContain('### REST-03 (MUST): fail (known failure)');
    expect(known).toContain([
      '## Known failures (known.json)',
      '',
      '- known failures (do not fail the run): REST-03',
      '- listed but passed (fail the run): REST-02',
      '- listed but not judged in this run: none',
      '- exit code without the baseline: 1',
      '',
      '> REST-02 is listed as a known failure in known.json but passed: remove it from the baseline',
      '',
    ].join('\n'));
    expect(known).not.toMatch(/\n{3}/);
  });
});
