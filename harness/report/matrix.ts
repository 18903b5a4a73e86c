/**
 * The conformance matrix: one row per rule of the catalog, one column per subject (a target or a client), each cell
 * the rule's status in that subject's (merged) report. Markdown for a pull request or job summary, HTML (one
 * self-contained file, no script) for people.
 */
import { escapeHtml } from './html.ts';
import { isNotSelected } from './model.ts';
import type { Report, RuleResult, RuleStatus } from './model.ts';

export interface MatrixColumn {
  readonly subject: string;
  readonly report: Report;
}

/** A cell: the rule's status, or `not-selected` when that subject's run did not select it. */
type Cell = RuleStatus | 'not-selected';

const MARK: Record<Cell, string> = {
  pass: '✅ pass',
  partial: '◐ partial',
  fail: '❌ fail',
  warn: '⚠️ warn',
  info: 'ℹ️ info',
  skipped: '— skipped',
  'not-applicable': '∅ n/a',
  error: '💥 error',
  'not-selected': '· not selected',
};

function cellOf(rule: RuleResult | undefined): Cell | undefined {
  if (rule === undefined) return undefined;
  return isNotSelected(rule) ? 'not-selected' : rule.status;
}

function rows(columns: readonly MatrixColumn[]) {
  const catalog = columns[0]?.report.rules ?? [];
  return catalog.map((rule) => ({
    id: rule.id,
    side: rule.side,
    level: rule.level,
    statement: rule.statement,
    statuses: columns.map((c) => cellOf(c.report.rules.find((r) => r.id === rule.id))),
  }));
}

function mdCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function counts(report: Report): string {
  const s = report.summary;
  return `${s.pass} pass, ${s.partial} partial, ${s.fail} fail, ${s.warn} warn, ${s.error} error`;
}

/** The matrix as Markdown: a summary line per subject, then the rule × subject table. */
export function renderMatrixMarkdown(columns: readonly MatrixColumn[]): string {
  const out = ['# Conformance matrix', ''];
  for (const c of columns) out.push(`- **${mdCell(c.subject)}** (${c.report.target.kind}, seed ${c.report.seed}, exit code ${c.report.exitCode}): ${counts(c.report)}`);
  out.push('', `| rule | side | level | ${columns.map((c) => mdCell(c.subject)).join(' | ')} |`, `|---|---|---|${columns.map(() => '---').join('|')}|`);
  for (const r of rows(columns)) {
    out.push(`| ${r.id} | ${r.side} | ${r.level} | ${r.statuses.map((s) => (s ? MARK[s] : '')).join(' | ')} |`);
  }
  return `${out.join('\n')}\n`;
}

const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:1.5rem;color:#1b1f24}table{border-collapse:collapse}
th,td{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}th{background:#f6f8fa;position:sticky;top:0}
td.s-pass{background:#dafbe1}td.s-partial{background:#fff8c5}td.s-fail,td.s-error{background:#ffebe9}td.s-warn{background:#fff1e5}
td.s-info{background:#ddf4ff}td.s-skipped,td.s-not-applicable,td.s-not-selected{color:#656d76}td.stmt{max-width:40rem;color:#424a53}`;

/** The matrix as one self-contained HTML page. */
export function renderMatrixHtml(columns: readonly MatrixColumn[]): string {
  const head = columns.map((c) => `<th>${escapeHtml(c.subject)}<br><small>${escapeHtml(counts(c.report))}</small></th>`).join('');
  const body = rows(columns).map((r) => {
    const cells = r.statuses.map((s) => (s ? `<td class="s-${s}">${escapeHtml(MARK[s])}</td>` : '<td></td>')).join('');
    return `<tr><th scope="row">${r.id}</th><td>${r.side}</td><td>${r.level}</td><td class="stmt">${escapeHtml(r.statement)}</td>${cells}</tr>`;
  }).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance matrix</title><style>${STYLE}</style></head>
<body><h1>Conformance matrix</h1>
<table><thead><tr><th>rule</th><th>side</th><th>level</th><th>statement</th>${head}</tr></thead>
<tbody>
${body}
</tbody></table></body></html>
`;
}
