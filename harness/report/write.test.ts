import { fc, test } from '../../test/support/property-test.ts';
import { XMLValidator } from 'fast-xml-parser';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ReportWriteError } from './errors.ts';
import { REDACTED, Redactor } from './redact.ts';
import { sampleReport } from '../../test/support/report.ts';
import { renderReports, REPORT_FILES, writeReports } from './write.ts';

const forms = (s: string): string[] => [
  s,
  Buffer.from(s).toString('base64'),
  Buffer.from(s).toString('base64url'),
  encodeURIComponent(s),
  JSON.stringify(s).slice(1, -1),
  s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;'),
];
const survives = (text: string, needle: string) => text.split(REDACTED).some((part) => part.includes(needle));

// Passwords as people and generators make them: letters, digits, punctuation, the odd non-ASCII letter.
const secretArb = fc.stringMatching(/^[A-Za-z0-9!@#$%^&*()\-_=+[\]{};:,.<>/?~' éßø]{8,24}$/);

describe('renderReports', () => {
  test.prop([secretArb], { numRuns: 50 })('leaves no registered secret in any output, and every output valid', (secret) => {
    const rendered = renderReports(sampleReport(secret), new Redactor([secret]));
    const texts = [
      ['json', rendered.json], ['junit', rendered.junit], ['markdown', rendered.markdown], ['html', rendered.html], ['earl', rendered.earl],
    ] as const;
    for (const [name, text] of texts) {
      for (const form of forms(secret)) expect(survives(text, form), `${name} shows ${form}`).toBe(false);
    }
    expect(JSON.parse(rendered.json)).toEqual(JSON.parse(JSON.stringify(rendered.report)));
    expect(JSON.parse(rendered.earl)).toHaveProperty('@graph');
    expect(XMLValidator.validate(rendered.junit)).toBe(true);
  });

  it('redacts secret-shaped values that were never registered', () => {
    const rendered = renderReports(sampleReport('unregistered-pw'), new Redactor());
    for (const text of [rendered.json, rendered.junit, rendered.markdown, rendered.html, rendered.earl]) {
      expect(text).not.toMatch(/Authorization: Basic [A-Za-z0-9+/=]{8,}/);
      expect(text).not.toContain('<wsse:Password>unregistered-pw<');
      expect(text).not.toContain('&lt;wsse:Password&gt;unregistered-pw&lt;');
      expect(text).not.toContain('"password":"unregistered-pw"');
    }
  });
});

describe('writeReports', () => {
  const dirs: string[] = [];
  const tempDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tds-report-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  it('creates the directory and writes the five redacted files', async () => {
    const outDir = join(await tempDir(), 'reports', 'latest');
    const secret = 'Ws4kPq9TzX2!';
    const written = await writeReports(sampleReport(secret), outDir, new Redactor([secret]));
    expect(written.files).toEqual({
      json: join(outDir, REPORT_FILES.json), junit: join(outDir, REPORT_FILES.junit), markdown: join(outDir, REPORT_FILES.markdown),
      html: join(outDir, 'report.html'), earl: join(outDir, 'report.earl.jsonld'),
    });
    expect((await readdir(outDir)).sort()).toEqual(['junit.xml', 'report.earl.jsonld', 'report.html', 'report.json', 'report.md']);
    for (const file of Object.values(written.files)) expect(await readFile(file, 'utf8')).not.toContain(secret);
    expect(JSON.parse(await readFile(written.files.json, 'utf8'))).toMatchObject({ exitCode: 1, target: { name: 'simulator' } });
    expect(written.report.runErrors[0]?.message).toBe(`suites/x.test.ts: ${REDACTED}`);
  });

  it('fails with REPORT_WRITE_FAILED when the directory cannot be made', async () => {
    const file = join(await tempDir(), 'a-file');
    await writeFile(file, 'x');
    const error = await writeReports(sampleReport('whatever1'), join(file, 'sub'), new Redactor()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReportWriteError);
    expect(error).toMatchObject({ code: 'REPORT_WRITE_FAILED', outDir: join(file, 'sub') });
    expect((error as Error).message).toMatch(/^could not write the reports to ".*sub": /);
  });
});
