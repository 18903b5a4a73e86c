/**
 * The precision self-test as Vitest tests (`npm test` runs it this way): one test per subject, the same subjects and
 * judgement as `tds-conformance selftest`. Split over several test files, so that Vitest runs the parts side by side
 * in its workers; each file opens a session of its own and prints its precision line at the end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConformanceSession } from './runner.ts';
import { allSubjects, precisionLine, resultLine, selfTest, type SelfTestResult, type Subject } from './selftest.ts';

/** The part of the self-test a file runs: the subjects `pick` selects (given their index in the full list). */
export async function precisionSuite(part: string, pick: (subject: Subject, index: number) => boolean): Promise<void> {
  const subjects = (await allSubjects()).filter(pick);
  const results: SelfTestResult[] = [];
  let session: ConformanceSession;
  beforeAll(async () => {
    session = await ConformanceSession.open('sim');
  }, 60_000);
  afterAll(async () => {
    await session?.close();
    process.stdout.write(`self-test, ${part}: ${precisionLine(results)}\n`);
  });

  describe(`precision self-test: ${part}`, () => {
    it('has subjects to run', () => {
      expect(subjects.length).toBeGreaterThan(0);
    });
    it.each(subjects.map((s) => [`${s.kind} ${s.id}`, s] as const))('%s', async (_name, subject) => {
      const result = await selfTest(session, subject, { runs: 1 });
      results.push(result);
      expect(result.kind, resultLine(result)).toBe(subject.kind === 'reference' ? 'clean' : 'caught');
    }, 120_000);
  });
}
