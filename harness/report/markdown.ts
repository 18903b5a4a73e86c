import { areas } from '../catalog/index.ts';
import { isNotSelected } from './model.ts';
import type { CheckResult, Report, RuleResult, Summary } from './model.ts';
import { throttlingLine } from './throttling.ts';

/**
 * `report.md`: the run at a glance (target, seed, exit code, summary: the rules the run did not select counted apart
 * from the rules skipped for a reason), a table of rules per area (a rule not selected shows `not selected`), then every
 * failed, warned and errored rule with each of its non-passing checks: message, and expected, actual,
 * counterexample, seed and path, replay command and evidence in fenced blocks. INFO observations, run errors and
 * tests that name no rule close it.
 */
export function renderMarkdown(report: Report): string {
  const out: string[] = [];
  out.push(`# Conformance report: ${inline(report.target.name)} (${report.target.kind})`, '');
  out.push(
    '| | |',
    '|---|---|',
    `| tool | ${cell(`${report.tool.name} ${report.tool.version}`)} |`,
    `| started | ${cell(report.startedAt)} |`,
    `| finished | ${cell(report.finishedAt)} |`,
    `| seed | ${report.seed} (${report.runs} runs per property) |`,
    `| completion | ${report.completion} |`,
    `| exit code | ${report.exitCode} |`,
    `| selected rules | ${report.selection.length} of ${report.rules.length} |`,
    `| created on the target | ${report.resources.tokens} tokens, ${report.resources.sessionsOpened} sessions opened, ${report.resources.sessionsClosed} closed |`,
    ...(report.throttling !== undefined ? [`| throttling | ${cell(throttlingLine(report.throttling).replace(/^throttling: /, ''))} |`] : []),
    '',
  );

  out.push('## Summary', '', ...summaryTable(report.summary), '');

  if (report.baseline !== undefined) {
    const b = report.baseline;
    const ids = (list: readonly string[]) => (list.length === 0 ? 'none' : list.join(', '));
    out.push(
      `## Known failures (${inline(b.file)})`,
      '',
      `- known failures (do not fail the run): ${ids(b.knownFailures)}`,
      `- listed but passed (fail the run): ${ids(b.unexpectedPasses)}`,
      `- listed but not judged in this run: ${ids(b.notJudged)}`,
      `- exit code without the baseline: ${b.exitCodeWithout}`,
      ...(b.knownFlaky ? [`- known flaky (may fail without failing the run): ${b.knownFlaky.map((k) => `${k.rule} ${k.status}${k.failed ? ' (failed, excused)' : ''}`).join(', ')}`] : []),
      '',
      ...b.messages.map((m) => `> ${inline(m)}\n`),
    );
  }
  if (report.gate !== undefined) {
    const g = report.gate;
    const ids = (list: readonly { rule: string; status: string; reason: string }[]) => (list.length === 0 ? 'none' : list.map((u) => `${u.rule} (${u.status}: ${inline(u.reason)})`).join('; '));
    out.push(
      '## Certification gate (--require-checked)',
      '',
      `- selected rules not checked (fail the run): ${ids(g.unchecked)}`,
      `- expected skips (listed in the baseline, with their reason): ${ids(g.expectedSkips)}`,
      ...(g.checkedAnyway.length > 0 ? [`- listed as expected skips but checked in this run: ${g.checkedAnyway.join(', ')}`] : []),
      '',
      ...g.messages.map((m) => `> ${inline(m)}\n`),
    );
  }

  if (report.deferredGate !== undefined) {
    out.push(
      '## Certification gate (--require-checked)',
      '',
      `Left to \`tds-conformance merge\`: this run is shard ${report.shard?.index ?? '?'}/${report.shard?.count ?? '?'} of the suites' files, and a rule's checks may be in another shard.`,
      '',
    );
  }

  out.push('## Rules', '');
  for (const area of areas) {
    const rules = report.rules.filter((r) => r.area === area.id);
    if (rules.length === 0) continue;
    out.push(`### ${area.id}: ${inline(area.title)}`, '', '| rule | side | level | where | status | checks | note |', '|---|---|---|---|---|---:|---|');
    for (const r of rules) {
      out.push(`| ${r.id} | ${r.side} | ${r.level} | ${r.where} | ${statusText(r)} | ${r.checks.length} | ${cell(note(r))} |`);
    }
    out.push('');
  }

  const problems = report.rules.filter((r) => r.status === 'fail' || r.status === 'warn' || r.status === 'error');
  if (problems.length > 0) {
    out.push('## Failures, warnings and errors', '');
    for (const rule of problems) {
      out.push(`### ${rule.id} (${rule.level}): ${rule.status}${rule.knownFailure ? ' (known failure)' : ''}`, '', `> ${inline(rule.statement)}`, '');
      // The sentence of the interface document the rule rests on.
      if (rule.source) out.push(`The interface document (${inline(rule.source.section)}): “${inline(rule.source.quote)}”`, '');
      for (const check of rule.checks) {
        if (check.status === 'fail' || check.status === 'warn' || check.status === 'error') out.push(...checkSection(check));
      }
    }
  }

  const partial = report.rules.filter((r) => r.clauses?.some((c) => c.status === 'unchecked') && r.status !== 'skipped' && r.status !== 'not-applicable');
  if (partial.length > 0) {
    out.push('## Clauses not checked on this target', '', 'A rule is `partial` when every check that ran held but a clause could not be exercised here.', '');
    for (const rule of partial) {
      out.push(`- **${rule.id}** (${rule.status})`);
      for (const c of rule.clauses ?? []) if (c.status === 'unchecked') out.push(`  - \`${c.id}\` ${inline(c.text)} — unchecked: ${inline(oneLine(c.reason ?? ''))}`);
    }
    out.push('');
  }

  const observations = report.rules.flatMap((r) => r.checks.filter((c) => c.status === 'info').map((c) => ({ rule: r, check: c })));
  if (observations.length > 0) {
    out.push('## Observations (INFO rules)', '');
    for (const { rule, check } of observations) out.push(`- **${rule.id}** ${inline(check.name)}: ${inline(oneLine(check.status === 'info' ? check.message : ''))}`);
    out.push('');
  }

  if (report.runErrors.length > 0) {
    out.push('## Run errors', '');
    for (const e of report.runErrors) out.push(`- \`${e.code}\`: ${inline(oneLine(e.message))}`);
    out.push('');
  }

  if (report.unmapped.length > 0) {
    out.push('## Tests that name no rule', '', 'Conformance test titles start with the rule IDs they verify (`REST-03: …`).', '');
    for (const t of report.unmapped) out.push(`- ${inline(t.name)} (${inline(t.file)}): ${t.state}`);
    out.push('');
  }

  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

function summaryTable(s: Summary): string[] {
  return [
    '| pass | partial | fail | warn | info | skipped | not applicable | error | not selected |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${s.pass} | ${s.partial} | ${s.fail} | ${s.warn} | ${s.info} | ${s.skipped} | ${s.notApplicable} | ${s.error} | ${s.notSelected ?? 0} |`,
  ];
}

function statusText(rule: RuleResult): string {
  if (isNotSelected(rule)) return 'not selected';
  if (rule.knownFailure) return `${rule.status} (known)`;
  return rule.status === 'fail' || rule.status === 'error' ? `**${rule.status}**` : rule.status;
}

/** The note of a rule's row: the reason it did not run, or the first message of a check that did not pass. */
function note(rule: RuleResult): string {
  if (isNotSelected(rule)) return '';
  if (rule.reason !== undefined) return oneLine(rule.reason);
  for (const check of rule.checks) if (check.status !== 'pass') return oneLine(check.message);
  return '';
}

function checkSection(check: CheckResult): string[] {
  if (check.status !== 'fail' && check.status !== 'warn' && check.status !== 'error') return [];
  const out = [`#### ${inline(check.name)}`, ''];
  if (check.file !== undefined) out.push(`in \`${check.file.replaceAll('`', "'")}\``, '');
  const message = check.status === 'error' ? `${check.code}: ${check.message}` : check.message;
  if (message.includes('\n')) out.push(...fenced(message, 'text'));
  else out.push(inline(message), '');
  if (check.status !== 'error') {
    const blocks: [string, string | undefined, string][] = [
      ['expected', check.expected, 'text'],
      ['actual', check.actual, 'text'],
      ['counterexample', check.counterexample, 'text'],
    ];
    for (const [label, value, lang] of blocks) if (value !== undefined) out.push(`**${label}**`, '', ...fenced(value, lang));
    if (check.seed !== undefined) out.push(`seed ${check.seed}${check.path ? `, path \`${check.path}\`` : ''}`, '');
    if (check.replay !== undefined) out.push('**replay**', '', ...fenced(check.replay, 'sh'));
  }
  if (check.evidence?.length) out.push('**evidence**', '', ...fenced(check.evidence.join('\n\n'), 'text'));
  return out;
}

/** A fenced block that its content cannot close: the fence is longer than any run of backticks inside. */
function fenced(content: string, lang: string): string[] {
  const longest = Math.max(0, ...[...content.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}${lang}`, content, fence, ''];
}

/**
 * Text for a paragraph or heading: `<` and `>` escaped outside code spans (so `<wsse:Password>` is shown, not
 * taken for HTML), and inside code spans left as is (where Markdown shows them literally).
 */
function inline(text: string): string {
  return text
    .split(/(`[^`\n]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replaceAll('\\', '\\\\').replaceAll('<', '&lt;').replaceAll('>', '&gt;')))
    .join('');
}

/** Text for a table cell: {@link inline}, one line, `|` escaped (also inside code spans, as GFM tables require). */
function cell(text: string): string {
  return inline(oneLine(text)).replaceAll('|', '\\|');
}

function oneLine(text: string): string {
  const line = text.replace(/\s*\n\s*/g, ' ').trim();
  return line.length > 240 ? `${line.slice(0, 239)}…` : line;
}
