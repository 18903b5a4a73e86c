/**
 * Redaction throughput against 10, 1,000 and 10,000 registered secrets: the time to register them (every form of
 * each goes into the redactor's trie) and the time to redact a report-sized text that holds some of them, in MiB/s.
 * The alternation of every form as one regular expression (the redactor before the trie) is measured next to it up
 * to 1,000 secrets (beyond that one redaction took seconds).
 *
 *   npx tsx bench/redaction.ts [--text-kib 256]
 */
import { parseArgs } from 'node:util';
import { REDACTED, Redactor, secretForms } from '../harness/report/redact.ts';
import { fmt, isMain } from './util.ts';

export interface RedactionRow {
  readonly secrets: number;
  /** Registering the secrets, ms. */
  readonly addMs: number;
  /** One redaction of the text, ms (median of the repetitions). */
  readonly redactMs: number;
  readonly mibPerSecond: number;
  /** The same with one regular expression of every form, when measured. */
  readonly regexMs?: number;
}

/** Secrets shaped like the harness's: passwords and sessionless tokens sharing their `T1RLAQ` prefix. */
function secretsOf(n: number): string[] {
  return Array.from({ length: n }, (_, i) =>
    i % 2 === 0 ? `Pa55-${i.toString(36)}-w0rd!${(i * 7919).toString(36)}` : `T1RLAQ${Buffer.from(`token-${i}-${i * 104729}`).toString('base64url')}`);
}

/** Report-like text of `kib` KiB: HTTP exchanges, some with a registered secret in one of its forms. */
function textOf(kib: number, secrets: readonly string[]): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < kib * 1024; i++) {
    const secret = secrets[(i * 31) % secrets.length] ?? '';
    const form = i % 4 === 0 ? (secretForms(secret)[i % 5] ?? secret) : 'no secret here';
    const line = `> POST /v2/auth/token HTTP/1.1\n> Content-Type: application/x-www-form-urlencoded\n< 200 {"token_type":"bearer","note":"${form}","expires_in":604800}\n`;
    parts.push(line);
    size += line.length;
  }
  return parts.join('');
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

function alternation(secrets: readonly string[]): RegExp {
  const forms = [...new Set(secrets.flatMap((s) => secretForms(s)))].sort((a, b) => b.length - a.length);
  return new RegExp(forms.map((f) => f.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('|'), 'g');
}

export function measureRedaction(options: { textKiB?: number; counts?: readonly number[]; repeat?: number } = {}): RedactionRow[] {
  const rows: RedactionRow[] = [];
  for (const n of options.counts ?? [10, 1_000, 10_000]) {
    const secrets = secretsOf(n);
    const text = textOf(options.textKiB ?? 256, secrets);
    let started = performance.now();
    const redactor = new Redactor(secrets);
    const addMs = performance.now() - started;
    const times: number[] = [];
    let out = '';
    for (let r = 0; r < (options.repeat ?? 5); r++) {
      started = performance.now();
      out = redactor.redactValues(text);
      times.push(performance.now() - started);
    }
    if (!out.includes(REDACTED)) throw new Error('nothing was redacted: the bench text holds no secret');
    const redactMs = median(times);
    let regexMs: number | undefined;
    if (n <= 1_000) {
      started = performance.now();
      const matcher = alternation(secrets);
      const viaRegex = text.replace(matcher, REDACTED);
      regexMs = performance.now() - started;
      if (viaRegex !== out) throw new Error(`the trie and the alternation disagree at ${n} secrets`);
    }
    rows.push({ secrets: n, addMs, redactMs, mibPerSecond: text.length / 1024 / 1024 / (redactMs / 1000), ...(regexMs !== undefined && { regexMs }) });
  }
  return rows;
}

export function describeRedaction(rows: readonly RedactionRow[]): string[] {
  return rows.map((r) =>
    `  ${fmt.int(r.secrets).padStart(6)} secrets: register ${r.addMs.toFixed(1)} ms, redact ${r.redactMs.toFixed(1)} ms (${r.mibPerSecond.toFixed(1)} MiB/s)` +
    (r.regexMs !== undefined ? `; one regular expression of every form: ${r.regexMs.toFixed(1)} ms (build and one redaction)` : ''));
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { 'text-kib': { type: 'string', default: '256' } } });
  const rows = measureRedaction({ textKiB: Number(values['text-kib']) });
  console.log(`redaction of ${values['text-kib']} KiB of report text`);
  for (const line of describeRedaction(rows)) console.log(line);
  const [small, , large] = rows;
  if (small && large) console.log(`  redaction time at 10,000 against 10 secrets: ×${(large.redactMs / small.redactMs).toFixed(2)}; registration per secret ${(large.addMs / large.secrets * 1000).toFixed(1)} µs at 10,000, ${(small.addMs / small.secrets * 1000).toFixed(1)} µs at 10`);
}
