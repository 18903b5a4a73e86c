import { describe, expect, it } from 'vitest';
import { rules as catalog } from '../catalog/index.ts';
import { applyBaseline } from './baseline.ts';
import { buildReport } from './build.ts';
import { escapeHtml, renderHtml } from './html.ts';
import { Redactor } from './redact.ts';
import { buildOptions, failed, sampleReport } from '../../test/support/report.ts';
import { renderReports } from './write.ts';

/** The text between the element with this id's opening tag and the closing `</${tag}>`. */
function element(html: string, id: string, tag: string): string {
  const start = html.indexOf(` id="${id}"`);
  if (start < 0) throw new Error(`no element with id "${id}"`);
  const end = html.indexOf(`</${tag}>`, start);
  return html.slice(html.lastIndexOf('<', start), end + tag.length + 3);
}

describe('escapeHtml', () => {
  it('escapes the five characters that matter in text and attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&#34;x&#34; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
  });

  it('replaces control characters and lone surrogates', () => {
    expect(escapeHtml('a\u0001b\u007fc\ud800d\tf\ng')).toBe('a\ufffdb\ufffdc\ufffdd\tf\ng');
    expect(escapeHtml('😀')).toBe('😀');
  });
});

describe('renderHtml', () => {
  const secret = 'not-really-secret';
  const html = renderHtml(sampleReport(secret));

  it('is one self-contained document that loads nothing', () => {
    expect(html.startsWith('<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">')).toBe(true);
    expect(html.endsWith('</html>\n')).toBe(true);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">`);
    expect(html).not.toMatch(/\s(?:src|srcset)=/);
    expect(html).not.toMatch(/<link\b|@import|url\(|@font-face/);
    expect(html).not.toMatch(/href="(?!#)/);
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html.match(/<style>/g)).toHaveLength(1);
  });

  it('starts with the run and its summary', () => {
    expect(html).toContain('<title>Conformance report: simulator (sim)</title>');
    expect(html).toContain('<h1>Conformance report: simulator <small>(sim)</small></h1>');
    expect(html).toContain('<p class="verdict bad" id="verdict">exit code <strong>1</strong>: a MUST rule failed</p>');
    expect(html).toContain('<div><dt>seed</dt><dd>42 (25 runs per property)</dd></div>');
    const summary = element(html, 'summary', 'section');
    const counts = [...summary.matchAll(/data-count="([a-z-]+)"><span class="n">(\d+)<\/span>/g)].map((m) => [m[1], Number(m[2])]);
    expect(counts).toEqual([['pass', 1], ['partial', 0], ['fail', 1], ['warn', 1], ['info', 1], ['skipped', 45], ['not-applicable', 1], ['error', 1], ['not-selected', 0]]);
  });

  it('counts, shows and filters the rules the run did not select apart from the rules skipped for a reason', () => {
    const page = renderHtml(sampleReport(secret, ['REST-02', 'REST-03', 'CRED-01']));
    const summary = element(page, 'summary', 'section');
    const counts = Object.fromEntries([...summary.matchAll(/data-count="([a-z-]+)"><span class="n">(\d+)<\/span>/g)].map((m) => [m[1], Number(m[2])]));
    expect(counts).toMatchObject({ pass: 1, fail: 1, skipped: 1, 'not-selected': 48 });
    const rows = [...page.matchAll(/<tr id="row-([A-Z]+-\d\d)" data-rule="\1" data-filter data-status="([a-z-]+)"/g)];
    expect(rows.find((m) => m[1] === 'CRED-01')?.[2]).toBe('skipped');
    expect(rows.find((m) => m[1] === 'CRED-02')?.[2]).toBe('not-selected');
    expect(rows.filter((m) => m[2] === 'not-selected')).toHaveLength(48);
    expect(page).toContain('<span class="badge s-not-selected">not selected</span>');
    expect(element(page, 'filter-status', 'fieldset')).toContain('<input type="checkbox" name="status" value="not-selected" checked> not selected <span class="n">48</span>');
  });

  it('has a row per catalog rule, in a table per area, with what the filters read', () => {
    const rows = [...html.matchAll(/<tr id="row-([A-Z]+-\d\d)" data-rule="\1" data-filter data-status="([a-z-]+)" data-side="(service|client)">/g)];
    expect(rows.map((m) => m[1])).toEqual(catalog.map((r) => r.id));
    expect(rows.find((m) => m[1] === 'REST-03')?.slice(2)).toEqual(['fail', 'service']);
    expect(rows.find((m) => m[1] === 'CRED-01')?.slice(2)).toEqual(['skipped', 'client']);
    expect(html).toContain('<th scope="row"><a href="#rule-REST-03">REST-03</a></th><td>service</td><td>MUST</td><td>any</td><td><span class="badge s-fail">fail</span></td><td class="num">1</td>');
    expect(html.match(/<section class="area" /g)).toHaveLength(11);
  });

  it('offers filters by every status and by side, hidden until the script shows them', () => {
    const form = element(html, 'filters', 'form');
    expect(form.startsWith('<form id="filters" class="filters" hidden')).toBe(true);
    expect([...form.matchAll(/name="status" value="([a-z-]+)" checked/g)].map((m) => m[1])).toEqual(['pass', 'partial', 'fail', 'warn', 'info', 'skipped', 'not-applicable', 'error', 'not-selected']);
    expect([...form.matchAll(/name="side" value="([a-z-]+)" checked/g)].map((m) => m[1])).toEqual(['service', 'client']);
  });

  it('details a failure: message, expected, actual, counterexample, seed and path, replay and evidence, escaped', () => {
    const rest03 = element(html, 'rule-REST-03', 'article');
    expect(rest03).toContain('data-filter data-status="fail" data-side="service"');
    expect(rest03).toContain('<p class="source">The interface document (Resources and their fields › Access token response (REST)): <q>access_token: The token to send');
    expect(rest03).toContain(`<pre class="message">unexpected &#34;token_type&#34; value &lt;bearer&gt; | ${secret}</pre>`);
    expect(rest03).toContain('<div class="expected"><h5>expected</h5><pre>&#34;bearer&#34;</pre></div>');
    expect(rest03).toContain(`<div class="actual"><h5>actual</h5><pre>&#34;Bearer&#34; ${secret}</pre></div>`);
    expect(rest03).toContain(`<div class="counterexample"><h5>counterexample</h5><pre>[{&#34;password&#34;:&#34;${secret}&#34;}]</pre></div>`);
    expect(rest03).toContain('<p class="seed">seed <code>42</code>, path <code>3:1</code></p>');
    expect(rest03).toContain("<pre><code>npx tds-conformance run --only REST-03 --seed 42 --replay &#39;REST-03: a valid request gets a token@3:1&#39;</code></pre>");
    expect(rest03).toContain('<details class="evidence"><summary>evidence (2)</summary>');
    expect(rest03).toContain(`<pre>&lt;wsse:Password&gt;${secret}&lt;/wsse:Password&gt; &amp; &#34;quotes&#34; ]]&gt; \ufffd \`\`\` fence</pre>`);
  });

  it('details warnings and errors, and lists observations, run errors', () => {
    expect(element(html, 'rule-REST-05', 'article')).toContain('<div class="expected"><h5>expected</h5><pre>200</pre></div>');
    expect(element(html, 'rule-API-01', 'article')).toContain(`<pre class="message">TARGET_UNREACHABLE: cannot reach https://user:${secret}@cert.example</pre>`);
    expect(html).not.toContain('id="rule-REST-02"');
    expect(element(html, 'observations', 'section')).toContain('<li data-filter data-status="info" data-side="service"><strong>ERR-05</strong> ERR-05: SOAP fault status: observed: 500 (publicly seen: 500; the same)</li>');
    expect(element(html, 'run-errors', 'section')).toContain(`<li><code>TEST_FILE_FAILED</code>: suites/x.test.ts: ${secret}</li>`);
  });

  it('never lets report text become markup', () => {
    const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const report = buildReport([failed(`REST-03: ${hostile}`, hostile, { failure: { message: hostile, expected: hostile, actual: hostile, evidence: [hostile] } })], {
      ...buildOptions, target: { name: hostile, kind: 'live' },
    });
    const page = renderHtml(report);
    expect(page).not.toContain('<script>alert');
    expect(page).not.toContain('<img');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;');
  });

  it('marks known failures and shows the baseline\'s verdict', () => {
    const { report } = applyBaseline(sampleReport(secret), { knownFailures: [{ rule: 'REST-03' }, { rule: 'REST-02' }] }, 'known.json');
    const page = renderHtml(report);
    expect(page).toContain('<span class="badge s-fail">fail · known</span>');
    expect(page).toContain('<p class="known">A known failure: listed in known.json, it does not fail the run.</p>');
    const baseline = element(page, 'baseline', 'section');
    expect(baseline).toContain('<h2 id="baseline-title">Known failures <small>known.json</small></h2>');
    expect(baseline).toContain('<li>REST-02 is listed as a known failure in known.json but passed: remove it from the baseline</li>');
  });

  it('shows no secret once rendered through renderReports', () => {
    const rendered = renderReports(sampleReport('Ws4kPq9TzX2!'), new Redactor(['Ws4kPq9TzX2!']));
    expect(rendered.html).not.toContain('Ws4kPq9TzX2');
    expect(rendered.html).toContain('«redacted»');
  });
});
