/**
 * The README and docs/ hold together: the README's map of folders ("How it works") names every folder git tracks at
 * the top level and under harness/, and names nothing that is not there; every relative link of README.md and
 * docs/*.md reaches a file that exists, and an anchor a heading of that file.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
}

/** The lines of the first fenced block after the heading `heading`. */
function fencedBlockUnder(markdown: string, heading: string): string[] {
  const lines = markdown.split('\n');
  const at = lines.findIndex((l) => l.trim() === heading);
  if (at < 0) throw new Error(`no heading "${heading}"`);
  const open = lines.findIndex((l, i) => i > at && l.startsWith('```'));
  const close = lines.findIndex((l, i) => i > open && l.startsWith('```'));
  if (open < 0 || close < 0) throw new Error(`no fenced block under "${heading}"`);
  return lines.slice(open + 1, close);
}

/** The lines of a Markdown text outside fenced code blocks. */
function outsideFences(markdown: string): string[] {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const m = /^\s*(`{3,}|~{3,})/.exec(line);
    if (m) {
      const marker = m[1] as string;
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      continue;
    }
    if (fence === undefined) out.push(line);
  }
  return out;
}

/** GitHub's anchor of a heading: lowercase, only letters, digits, spaces and hyphens kept, spaces as '-'. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings (a repeated heading gets `-1`, `-2`, … as on GitHub). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of outsideFences(markdown)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1] as string);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** The targets of the Markdown links `[text](target)` of a file, outside code, with their line numbers. */
function linksOf(markdown: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  let inFence = false;
  let fence = '';
  markdown.split('\n').forEach((text, i) => {
    const m = /^\s*(`{3,}|~{3,})/.exec(text);
    if (m) {
      const marker = m[1] as string;
      if (!inFence) [inFence, fence] = [true, marker];
      else if (marker[0] === fence[0] && marker.length >= fence.length) inFence = false;
      return;
    }
    if (inFence) return;
    const prose = text.replace(/`[^`]*`/g, '``');
    for (const link of prose.matchAll(/\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: link[1] as string, line: i + 1 });
    }
  });
  return links;
}

describe('README.md and docs/', () => {
  it("the README's map of folders matches the tree", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const listed = new Set(
      fencedBlockUnder(readme, '## How it works')
        .filter((l) => l.trim() !== '')
        .map((l) => (l.trim().split(/\s+/)[0] as string).replace(/\/$/, '')),
    );

    const files = trackedFiles();
    const topLevel = new Set(files.filter((f) => f.includes('/')).map((f) => f.split('/')[0] as string).filter((d) => !d.startsWith('.')));
    const underHarness = new Set(
      files.filter((f) => f.startsWith('harness/') && f.split('/').length > 2).map((f) => `harness/${f.split('/')[1] as string}`),
    );
    expect(topLevel.size).toBeGreaterThan(5);
    expect(underHarness.size).toBeGreaterThan(5);

    const missing = [...topLevel, ...underHarness].filter((d) => !listed.has(d)).sort();
    expect(missing, 'folders git tracks that the map of "How it works" does not list').toEqual([]);
    const absent = [...listed].filter((p) => !existsSync(join(ROOT, p))).sort();
    expect(absent, 'paths the map lists that do not exist').toEqual([]);
  });

  it('every relative link of README.md and docs/*.md points to a file that exists, and an anchor to a heading it has', () => {
    const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(ROOT, 'docs', f));
    const sources = [join(ROOT, 'README.md'), ...docs];
    const problems: string[] = [];
    let checked = 0;
    for (const source of sources) {
      const markdown = readFileSync(source, 'utf8');
      for (const { target, line } of linksOf(markdown)) {
        if (/^(https?|mailto):/i.test(target)) continue;
        checked++;
        const where = `${relative(ROOT, source)}:${line} → ${target}`;
        const hash = target.indexOf('#');
        const path = hash < 0 ? target : target.slice(0, hash);
        const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
        const file = path === '' ? source : resolve(dirname(source), decodeURIComponent(path));
        if (!existsSync(file)) {
          problems.push(`${where}: no such file`);
          continue;
        }
        if (anchor === undefined) continue;
        if (statSync(file).isDirectory() || !file.endsWith('.md')) {
          problems.push(`${where}: an anchor into something that is not a Markdown file`);
          continue;
        }
        if (!anchorsOf(readFileSync(file, 'utf8')).has(anchor)) problems.push(`${where}: no heading with that anchor`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(problems).toEqual([]);
  });
});
