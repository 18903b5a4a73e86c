import { areas } from '../catalog/index.ts';
import type { CheckResult, Report, RuleResult, Status } from './model.ts';
import { isNotSelected, STATUSES } from './model.ts';
import { throttlingLine } from './throttling.ts';

/**
 * `report.html`: the report for people, in one self-contained file (inline CSS and script; no network, no external
 * fonts or images; a Content-Security-Policy that forbids loading anything). The run at a glance (target, seed,
 * exit code), the summary by status, a table of rules per area, then every failed, warned and errored rule with
 * each of its non-passing checks: message, expected and actual values, counterexample, seed and path, replay
 * command and evidence. INFO observations, the baseline's verdict, run errors and tests that name no rule close it.
 *
 * A rule the run did not select is shown, counted and filtered as `not selected`, apart from the rules skipped for a
 * reason (its status in report.json stays `skipped`, with `notSelected: true`).
 *
 * Rules, failures and observations can be filtered by status and by side (service or client) in the page; without
 * script everything is shown. Every text of the report is HTML-escaped; the report is expected to be redacted
 * already (`renderReports` does both).
 */
export function renderHtml(report: Report): string {
  const title = `Conformance report: ${report.target.name} (${report.target.kind})`;
  const body = [
    header(report),
    '<main>',
    summary(report),
    baselineSection(report),
    gateSection(report),
    filters(report),
    rulesSection(report),
    problemsSection(report),
    clausesSection(report),
    observationsSection(report),
    runErrorsSection(report),
    unmappedSection(report),
    '</main>',
    `<footer>Written by ${esc(report.tool.name)} ${esc(report.tool.version)}. Secrets (passwords, credentials, tokens) are redacted as ${esc('«redacted»')}.</footer>`,
  ].filter((part) => part !== '');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="referrer" content="no-referrer">',
    `<meta name="generator" content="${esc(`${report.tool.name} ${report.tool.version}`)}">`,
    `<title>${esc(title)}</title>`,
    `<style>${CSS}</style>`,
    '</head>',
    `<body data-exit-code="${report.exitCode}">`,
    ...body,
    `<script>${SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** Nothing may be loaded: only the inline style and script run. */
const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };

/**
 * Characters HTML text should not hold (C0 controls but tab, line feed and carriage return; lone surrogates),
 * replaced by U+FFFD so what is shown is what the report holds, visibly.
 */
const NOT_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text for HTML content and attribute values (in double or single quotes): `& < > " '` escaped. */
export function escapeHtml(text: string): string {
  return text.replace(NOT_TEXT, '\uFFFD').replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

const esc = escapeHtml;

/** What the page shows and filters by: the statuses, and `not-selected` for the rules the run did not select. */
type ShownStatus = Status | 'not-selected';
const SHOWN_STATUSES: readonly ShownStatus[] = [...STATUSES, 'not-selected'];

const STATUS_LABELS: Record<ShownStatus, string> = {
  pass: 'pass', partial: 'partial', fail: 'fail', warn: 'warn', info: 'info', skipped: 'skipped', 'not-applicable': 'not applicable', error: 'error',
  'not-selected': 'not selected',
};

const SUMMARY_KEYS: Record<ShownStatus, keyof Report['summary']> = {
  pass: 'pass', partial: 'partial', fail: 'fail', warn: 'warn', info: 'info', skipped: 'skipped', 'not-applicable': 'notApplicable', error: 'error',
  'not-selected': 'notSelected',
};

/** A rule's status as the page shows it. */
function shownStatus(rule: RuleResult): ShownStatus {
  return isNotSelected(rule) ? 'not-selected' : rule.status;
}

/** A count of the summary (0 for `notSelected` in a report written before it existed). */
function summaryCount(report: Report, status: ShownStatus): number {
  return report.summary[SUMMARY_KEYS[status]] ?? 0;
}

const PROBLEM = new Set<Status>(['fail', 'warn', 'error']);
const SIDE_ORDER: readonly string[] = ['service', 'client'];

function badge(status: ShownStatus, known = false): string {
  return `<span class="badge s-${status}">${esc(STATUS_LABELS[status])}${known ? ' · known' : ''}</span>`;
}

/** The attributes the filters read. */
function filterAttributes(status: ShownStatus, side: string): string {
  return `data-filter data-status="${esc(status)}" data-side="${esc(side)}"`;
}

function verdict(report: Report): string {
  switch (report.exitCode) {
    case 0: return 'no MUST rule failed and nothing errored';
    case 1: return report.summary.fail > 0 || (report.baseline?.messages.length ?? 0) > 0
      ? 'a MUST rule failed'
      : (report.gate?.unchecked.length ?? 0) > 0 ? 'a selected rule was not checked (--require-checked)' : 'a check could not be carried out';
    case 3: return 'the target could not be reached';
  }
}

function header(report: Report): string {
  const r = report.resources;
  const rows: [string, string][] = [
    ['tool', `${report.tool.name} ${report.tool.version}`],
    ['started', report.startedAt],
    ['finished', report.finishedAt],
    ['seed', `${report.seed} (${report.runs} runs per property)`],
    ['completion', report.completion],
    ['selected rules', `${report.selection.length} of ${report.rules.length}`],
    ['created on the target', `${r.tokens} tokens, ${r.sessionsOpened} sessions opened, ${r.sessionsClosed} closed`],
    ...(report.throttling !== undefined ? [['throttling', throttlingLine(report.throttling).replace(/^throttling: /, '')] as [string, string]] : []),
  ];
  if (report.baseline !== undefined) rows.push(['baseline', report.baseline.file]);
  return [
    '<header>',
    `<h1>Conformance report: ${esc(report.target.name)} <small>(${esc(report.target.kind)})</small></h1>`,
    report.completion === 'interrupted'
      ? `<p class="verdict bad" id="verdict"><strong>interrupted</strong>: the run was stopped before every check finished (the command exits 130 on SIGINT, 143 on SIGTERM)</p>`
      : `<p class="verdict ${report.exitCode === 0 ? 'ok' : 'bad'}" id="verdict">exit code <strong>${report.exitCode}</strong>: ${esc(verdict(report))}</p>`,
    '<dl class="meta">',
    ...rows.map(([k, v]) => `<div><dt>${esc(k)}</dt><dd>${esc(v)}</dd></div>`),
    '</dl>',
    '</header>',
  ].join('\n');
}

function summary(report: Report): string {
  const items = SHOWN_STATUSES.map((status) => {
    const n = summaryCount(report, status);
    return `<li class="count s-${status}${n === 0 ? ' zero' : ''}" data-count="${status}"><span class="n">${n}</span> <span class="label">${esc(STATUS_LABELS[status])}</span></li>`;
  });
  return [
    '<section id="summary" aria-labelledby="summary-title">',
    `<h2 id="summary-title">Summary <small>${report.rules.length} rules</small></h2>`,
    '<ul class="counts">',
    ...items,
    '</ul>',
    '</section>',
  ].join('\n');
}

function baselineSection(report: Report): string {
  const b = report.baseline;
  if (b === undefined) return '';
  const list = (ids: readonly string[]) => (ids.length === 0 ? 'none' : ids.map((id) => `<a href="#rule-${esc(id)}">${esc(id)}</a>`).join(', '));
  return [
    '<section id="baseline" aria-labelledby="baseline-title">',
    `<h2 id="baseline-title">Known failures <small>${esc(b.file)}</small></h2>`,
    '<dl class="meta">',
    `<div><dt>known failures (do not fail the run)</dt><dd>${list(b.knownFailures)}</dd></div>`,
    `<div><dt>listed but passed (fail the run)</dt><dd>${b.unexpectedPasses.map(esc).join(', ') || 'none'}</dd></div>`,
    `<div><dt>listed but not judged in this run</dt><dd>${b.notJudged.map(esc).join(', ') || 'none'}</dd></div>`,
    `<div><dt>exit code without the baseline</dt><dd>${b.exitCodeWithout}</dd></div>`,
    ...(b.knownFlaky ? [`<div><dt>known flaky (may fail without failing the run)</dt><dd>${b.knownFlaky.map((k) => `${list([k.rule])} ${esc(k.status)}${k.failed ? ' (failed, excused)' : ''}`).join(', ')}</dd></div>`] : []),
    '</dl>',
    ...(b.messages.length > 0 ? ['<ul class="messages">', ...b.messages.map((m) => `<li>${esc(m)}</li>`), '</ul>'] : []),
    '</section>',
  ].join('\n');
}

function gateSection(report: Report): string {
  const g = report.gate;
  if (g === undefined && report.deferredGate !== undefined) {
    return [
      '<section id="gate" aria-labelledby="gate-title">',
      '<h2 id="gate-title">Certification gate <small>--require-checked</small></h2>',
      `<p>Left to <code>tds-conformance merge</code>: this run is shard ${esc(String(report.shard?.index ?? '?'))}/${esc(String(report.shard?.count ?? '?'))} of the suites' files, and a rule's checks may be in another shard.</p>`,
      '</section>',
    ].join('\n');
  }
  if (g === undefined) return '';
  const list = (items: readonly { rule: string; status: string; reason: string }[]) => (items.length === 0
    ? 'none'
    : items.map((u) => `<a href="#rule-${esc(u.rule)}">${esc(u.rule)}</a> ${esc(u.status)}: ${esc(u.reason)}`).join('<br>'));
  return [
    '<section id="gate" aria-labelledby="gate-title">',
    '<h2 id="gate-title">Certification gate <small>--require-checked</small></h2>',
    '<dl class="meta">',
    `<div><dt>selected rules not checked (fail the run)</dt><dd>${list(g.unchecked)}</dd></div>`,
    `<div><dt>expected skips (baseline)</dt><dd>${list(g.expectedSkips)}</dd></div>`,
    ...(g.checkedAnyway.length > 0 ? [`<div><dt>expected skips checked after all</dt><dd>${g.checkedAnyway.map(esc).join(', ')}</dd></div>`] : []),
    '</dl>',
    ...(g.messages.length > 0 ? ['<ul class="messages">', ...g.messages.map((m) => `<li>${esc(m)}</li>`), '</ul>'] : []),
    '</section>',
  ].join('\n');
}

function filters(report: Report): string {
  const sides = [...new Set(report.rules.map((r) => r.side))].sort((a, b) => SIDE_ORDER.indexOf(a) - SIDE_ORDER.indexOf(b));
  const statusBoxes = SHOWN_STATUSES.map((status) => {
    const n = summaryCount(report, status);
    return `<label class="s-${status}"><input type="checkbox" name="status" value="${status}" checked> ${esc(STATUS_LABELS[status])} <span class="n">${n}</span></label>`;
  });
  const sideBoxes = sides.map((side) => {
    const n = report.rules.filter((r) => r.side === side).length;
    return `<label><input type="checkbox" name="side" value="${esc(side)}" checked> ${esc(side)} <span class="n">${n}</span></label>`;
  });
  return [
    '<form id="filters" class="filters" hidden aria-label="Filters">',
    `<fieldset id="filter-status"><legend>Status</legend>${statusBoxes.join(' ')}`,
    '<button type="button" data-preset="problems">problems only</button> <button type="button" data-preset="all">all</button></fieldset>',
    `<fieldset id="filter-side"><legend>Side</legend>${sideBoxes.join(' ')}</fieldset>`,
    `<p class="shown"><output id="shown-count">${report.rules.length}</output> of ${report.rules.length} rules shown</p>`,
    '</form>',
  ].join('\n');
}

/** The note of a rule's row: the reason it did not run, or the first message of a check that did not pass. */
function note(rule: RuleResult): string {
  if (isNotSelected(rule)) return '';
  if (rule.reason !== undefined) return oneLine(rule.reason);
  for (const check of rule.checks) if (check.status !== 'pass') return oneLine(check.message);
  return '';
}

function oneLine(text: string): string {
  const line = text.replace(/\s*\n\s*/g, ' ').trim();
  return line.length > 240 ? `${line.slice(0, 239)}…` : line;
}

function rulesSection(report: Report): string {
  const out = ['<section id="rules" aria-labelledby="rules-title">', '<h2 id="rules-title">Rules</h2>'];
  for (const area of areas) {
    const rules = report.rules.filter((r) => r.area === area.id);
    if (rules.length === 0) continue;
    out.push(
      `<section class="area" id="area-${esc(area.id)}" data-filter-group aria-labelledby="area-${esc(area.id)}-title">`,
      `<h3 id="area-${esc(area.id)}-title">${esc(area.id)}: ${esc(area.title)}</h3>`,
      '<table>',
      '<thead><tr><th scope="col">rule</th><th scope="col">side</th><th scope="col">level</th><th scope="col">where</th><th scope="col">status</th><th scope="col" class="num">checks</th><th scope="col">note</th></tr></thead>',
      '<tbody>',
    );
    for (const r of rules) {
      const id = PROBLEM.has(r.status) ? `<a href="#rule-${esc(r.id)}">${esc(r.id)}</a>` : esc(r.id);
      out.push(
        `<tr id="row-${esc(r.id)}" data-rule="${esc(r.id)}" ${filterAttributes(shownStatus(r), r.side)}>`
          + `<th scope="row">${id}</th><td>${esc(r.side)}</td><td>${esc(r.level)}</td><td>${esc(r.where)}</td>`
          + `<td>${badge(shownStatus(r), r.knownFailure === true)}</td><td class="num">${r.checks.length}</td>`
          + `<td class="note" title="${esc(r.statement)}">${esc(note(r))}</td></tr>`,
      );
    }
    out.push('</tbody>', '</table>', '</section>');
  }
  out.push('<p class="empty" id="rules-empty" hidden>No rule matches the filters.</p>', '</section>');
  return out.join('\n');
}

function problemsSection(report: Report): string {
  const problems = report.rules.filter((r) => PROBLEM.has(r.status));
  if (problems.length === 0) return '';
  const out = [
    '<section id="problems" data-filter-list aria-labelledby="problems-title">',
    '<h2 id="problems-title">Failures, warnings and errors</h2>',
  ];
  for (const rule of problems) {
    out.push(
      `<article class="problem" id="rule-${esc(rule.id)}" data-rule="${esc(rule.id)}" ${filterAttributes(rule.status, rule.side)}>`,
      `<h3>${badge(rule.status, rule.knownFailure === true)} ${esc(rule.id)} <small>${esc(rule.level)} · ${esc(rule.side)} · ${esc(rule.area)}</small></h3>`,
      `<blockquote>${esc(rule.statement)}</blockquote>`,
    );
    // The sentence of the interface document the rule rests on.
    if (rule.source) out.push(`<p class="source">The interface document (${esc(rule.source.section)}): <q>${esc(rule.source.quote)}</q></p>`);
    if (rule.knownFailure) out.push(`<p class="known">A known failure: listed in ${esc(report.baseline?.file ?? 'the baseline')}, it does not fail the run.</p>`);
    if (rule.reason !== undefined && rule.status === 'error') out.push(`<p>${esc(rule.reason)}</p>`);
    for (const check of rule.checks) if (PROBLEM.has(check.status)) out.push(checkSection(check));
    const others = rule.checks.filter((c) => !PROBLEM.has(c.status));
    if (others.length > 0) {
      out.push(
        `<details class="others"><summary>other checks of ${esc(rule.id)} (${others.length})</summary><ul>`,
        ...others.map((c) => `<li>${badge(c.status)} ${esc(c.name)}</li>`),
        '</ul></details>',
      );
    }
    out.push('</article>');
  }
  out.push('<p class="empty" hidden>No failure, warning or error matches the filters.</p>', '</section>');
  return out.join('\n');
}

/** Rules with clauses this run could not check (a `partial` rule, or a rule that failed on another clause). */
function clausesSection(report: Report): string {
  const rules = report.rules.filter((r) => r.status !== 'skipped' && r.status !== 'not-applicable' && r.clauses?.some((c) => c.status === 'unchecked'));
  if (rules.length === 0) return '';
  const out = [
    '<section id="unchecked" data-filter-list aria-labelledby="unchecked-title">',
    '<h2 id="unchecked-title">Clauses not checked on this target</h2>',
    '<p>A rule is <em>partial</em> when every check that ran held but a clause could not be exercised here.</p>',
  ];
  for (const rule of rules) {
    out.push(
      `<article class="unchecked" data-rule="${esc(rule.id)}" ${filterAttributes(rule.status, rule.side)}>`,
      `<h3>${badge(rule.status, rule.knownFailure === true)} ${esc(rule.id)} <small>${esc(rule.level)} · ${esc(rule.side)}</small></h3><ul>`,
      ...(rule.clauses ?? []).map((c) => `<li class="clause c-${esc(c.status)}"><code>${esc(c.id)}</code> ${esc(c.status)}: ${esc(c.text)}${c.reason !== undefined ? ` <span class="why">— ${esc(c.reason)}</span>` : ''}</li>`),
      '</ul></article>',
    );
  }
  out.push('<p class="empty" hidden>No rule matches the filters.</p>', '</section>');
  return out.join('\n');
}

function block(label: string, value: string, cls: string): string {
  return `<div class="${cls}"><h5>${esc(label)}</h5><pre>${esc(value)}</pre></div>`;
}

function checkSection(check: CheckResult): string {
  if (check.status !== 'fail' && check.status !== 'warn' && check.status !== 'error') return '';
  const out = [`<section class="check s-${check.status}" data-check-status="${check.status}">`, `<h4>${badge(check.status)} ${esc(check.name)}</h4>`];
  if (check.file !== undefined) out.push(`<p class="file">in <code>${esc(check.file)}</code></p>`);
  const message = check.status === 'error' ? `${check.code}: ${check.message}` : check.message;
  out.push(`<pre class="message">${esc(message)}</pre>`);
  if (check.status !== 'error') {
    if (check.expected !== undefined || check.actual !== undefined) {
      out.push(
        '<div class="values">',
        check.expected !== undefined ? block('expected', check.expected, 'expected') : '',
        check.actual !== undefined ? block('actual', check.actual, 'actual') : '',
        '</div>',
      );
    }
    if (check.counterexample !== undefined) out.push(block('counterexample', check.counterexample, 'counterexample'));
    if (check.seed !== undefined) {
      out.push(`<p class="seed">seed <code>${check.seed}</code>${check.path ? `, path <code>${esc(check.path)}</code>` : ''}</p>`);
    }
    if (check.replay !== undefined) {
      out.push(`<div class="replay"><h5>replay</h5><pre><code>${esc(check.replay)}</code></pre></div>`);
    }
  }
  if (check.evidence?.length) {
    out.push(
      `<details class="evidence"><summary>evidence (${check.evidence.length})</summary>`,
      ...check.evidence.map((e) => `<pre>${esc(e)}</pre>`),
      '</details>',
    );
  }
  out.push('</section>');
  return out.filter((line) => line !== '').join('\n');
}

function observationsSection(report: Report): string {
  const items = report.rules.flatMap((rule) => rule.checks.flatMap((check) => (check.status === 'info'
    ? [`<li ${filterAttributes('info', rule.side)}><strong>${esc(rule.id)}</strong> ${esc(check.name)}: ${esc(oneLine(check.message))}</li>`]
    : [])));
  if (items.length === 0) return '';
  return [
    '<section id="observations" data-filter-list aria-labelledby="observations-title">',
    '<h2 id="observations-title">Observations (INFO rules)</h2>',
    '<ul>',
    ...items,
    '</ul>',
    '<p class="empty" hidden>No observation matches the filters.</p>',
    '</section>',
  ].join('\n');
}

function runErrorsSection(report: Report): string {
  if (report.runErrors.length === 0) return '';
  return [
    '<section id="run-errors" aria-labelledby="run-errors-title">',
    '<h2 id="run-errors-title">Run errors</h2>',
    '<ul>',
    ...report.runErrors.map((e) => `<li><code>${esc(e.code)}</code>: ${esc(e.message)}</li>`),
    '</ul>',
    '</section>',
  ].join('\n');
}

function unmappedSection(report: Report): string {
  if (report.unmapped.length === 0) return '';
  return [
    '<section id="unmapped" aria-labelledby="unmapped-title">',
    '<h2 id="unmapped-title">Tests that name no rule</h2>',
    '<p>Conformance test titles start with the rule IDs they verify (<code>REST-03: …</code>).</p>',
    '<ul>',
    ...report.unmapped.map((t) => `<li>${esc(t.name)} (<code>${esc(t.file)}</code>): ${esc(t.state)}</li>`),
    '</ul>',
    '</section>',
  ].join('\n');
}

const CSS = `
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#57606a;--bg:#fff;--panel:#f6f8fa;--line:#d0d7de;--link:#0a58ca;
--pass:#1a7f37;--fail:#cf222e;--warn:#9a6700;--info:#0969da;--error:#8250df;--skip:#6e7781;
--pass-bg:#dafbe1;--fail-bg:#ffebe9;--warn-bg:#fff8c5;--info-bg:#ddf4ff;--error-bg:#fbefff;--skip-bg:#eaeef2}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--panel:#161b22;--line:#30363d;--link:#4493f8;
--pass:#3fb950;--fail:#f85149;--warn:#d29922;--info:#58a6ff;--error:#bc8cff;--skip:#9198a1;
--pass-bg:#12261e;--fail-bg:#2d1214;--warn-bg:#272115;--info-bg:#121d2f;--error-bg:#231a33;--skip-bg:#21262d}}
*{box-sizing:border-box}
[hidden]{display:none!important}
body{margin:0 auto;max-width:1200px;padding:24px;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--link)}
h1{font-size:24px;margin:0 0 8px}h2{font-size:19px;margin:32px 0 12px;border-bottom:1px solid var(--line);padding-bottom:4px}
h3{font-size:16px;margin:20px 0 8px}h4{font-size:14px;margin:12px 0 6px}h5{font-size:12px;margin:8px 0 4px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
small{color:var(--muted);font-weight:normal}
code,pre{font:12.5px/1.45 ui-monospace,SFMono-Regular,"SF Mono",Menlo,Consolas,"Liberation Mono",monospace}
pre{margin:0;padding:8px 10px;background:var(--panel);border:1px solid var(--line);border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere}
.verdict{display:inline-block;margin:0 0 12px;padding:4px 10px;border-radius:6px;font-weight:600}
.verdict.ok{background:var(--pass-bg);color:var(--pass)}.verdict.bad{background:var(--fail-bg);color:var(--fail)}
.meta{display:flex;flex-wrap:wrap;gap:4px 28px;margin:0}
.meta div{display:flex;gap:8px}.meta dt{color:var(--muted)}.meta dd{margin:0;overflow-wrap:anywhere}
.counts{display:flex;flex-wrap:wrap;gap:8px;list-style:none;margin:0;padding:0}
.count{min-width:110px;padding:8px 14px;border-radius:8px;border:1px solid var(--line);background:var(--panel)}
.count .n{display:block;font-size:24px;font-weight:700;line-height:1.2}.count.zero{opacity:.55}
.count.s-pass .n{color:var(--pass)}.count.s-fail .n{color:var(--fail)}.count.s-warn .n{color:var(--warn)}.count.s-info .n{color:var(--info)}
.count.s-error .n{color:var(--error)}.count.s-skipped .n,.count.s-not-applicable .n,.count.s-not-selected .n{color:var(--skip)}
.filters{position:sticky;top:0;z-index:1;display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;margin:24px 0 0;padding:8px 12px;background:var(--bg);border:1px solid var(--line);border-radius:8px}
.filters fieldset{border:0;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:4px 10px;align-items:center}
.filters legend{float:left;font-weight:600;margin-right:6px}.filters label{white-space:nowrap;cursor:pointer}
.filters .n{color:var(--muted);font-size:12px}.filters button{font:inherit;font-size:12px;padding:1px 8px;border:1px solid var(--line);border-radius:4px;background:var(--panel);color:var(--fg);cursor:pointer}
.shown{margin:0 0 0 auto;color:var(--muted)}
table{width:100%;border-collapse:collapse;margin:0 0 8px}
th,td{text-align:left;vertical-align:top;padding:5px 8px;border-bottom:1px solid var(--line)}
thead th{font-size:12px;color:var(--muted);font-weight:600}
tbody th{font-weight:600;white-space:nowrap}.num{text-align:right}
td.note{color:var(--muted);max-width:520px}
.badge{display:inline-block;padding:0 7px;border-radius:10px;font-size:12px;font-weight:600;white-space:nowrap}
.badge.s-pass{background:var(--pass-bg);color:var(--pass)}.badge.s-partial{background:var(--warn-bg);color:var(--pass)}.badge.s-fail{background:var(--fail-bg);color:var(--fail)}
.badge.s-warn{background:var(--warn-bg);color:var(--warn)}.badge.s-info{background:var(--info-bg);color:var(--info)}
.badge.s-error{background:var(--error-bg);color:var(--error)}.badge.s-skipped,.badge.s-not-applicable,.badge.s-not-selected{background:var(--skip-bg);color:var(--skip)}
.problem{margin:16px 0;padding:4px 16px 12px;border:1px solid var(--line);border-left:4px solid var(--skip);border-radius:8px}
.problem[data-status=fail]{border-left-color:var(--fail)}.problem[data-status=warn]{border-left-color:var(--warn)}.problem[data-status=error]{border-left-color:var(--error)}
blockquote{margin:0 0 8px;padding:0 12px;border-left:3px solid var(--line);color:var(--muted)}
.check{margin-top:12px}.file{margin:0 0 6px;color:var(--muted)}
.values{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.expected pre{border-color:var(--pass)}.actual pre{border-color:var(--fail)}
.replay pre{user-select:all}.seed{margin:8px 0 0}
details{margin-top:8px}summary{cursor:pointer;color:var(--muted)}details pre{margin-top:6px}
.others ul{margin:4px 0;padding-left:18px}
.known{color:var(--warn);font-weight:600}.messages li{color:var(--fail)}
.empty{color:var(--muted);font-style:italic}
footer{margin-top:40px;color:var(--muted);font-size:12px}
@media (max-width:720px){.values{grid-template-columns:1fr}td.note{display:none}body{padding:12px}}
@media print{.filters{display:none}.problem{break-inside:avoid}}
`.trim();

/** The filters: shows the rows, failures and observations whose status and side are both checked. */
const SCRIPT = `
(() => {
  'use strict';
  const form = document.getElementById('filters');
  if (!form) return;
  const checked = (name) => new Set([...form.querySelectorAll('input[name="' + name + '"]:checked')].map((i) => i.value));
  const apply = () => {
    const statuses = checked('status');
    const sides = checked('side');
    let shown = 0;
    for (const el of document.querySelectorAll('[data-filter]')) {
      const visible = statuses.has(el.dataset.status) && sides.has(el.dataset.side);
      el.hidden = !visible;
      if (visible && el.tagName === 'TR') shown++;
    }
    for (const group of document.querySelectorAll('[data-filter-group]')) {
      group.hidden = group.querySelector('[data-filter]:not([hidden])') === null;
    }
    for (const list of document.querySelectorAll('[data-filter-list]')) {
      const empty = list.querySelector('.empty');
      if (empty) empty.hidden = list.querySelector('[data-filter]:not([hidden])') !== null;
    }
    document.getElementById('rules-empty').hidden = shown > 0;
    document.getElementById('shown-count').value = String(shown);
  };
  form.addEventListener('change', apply);
  form.addEventListener('click', (event) => {
    const preset = event.target instanceof HTMLButtonElement ? event.target.dataset.preset : undefined;
    if (preset === undefined) return;
    for (const box of form.querySelectorAll('input[name="status"]')) {
      box.checked = preset === 'all' || box.value === 'fail' || box.value === 'warn' || box.value === 'error';
    }
    apply();
  });
  form.hidden = false;
  apply();
})();
`.trim();
