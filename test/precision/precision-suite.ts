/**
 * The precision self-test as Vitest tests (`npm test` runs it this way): one test per subject, the same subjects and
 * judgement as `tds-conformance selftest`. Split over several test files, so that Vitest runs the parts side by side
 * in its workers; each file opens a session of its own and prints its precision line at the end.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { SelfTestResult, Subject } from '../../harness/selftest.ts';
import { selftest } from '../support/compiled.ts';
import { useSession } from '../support/test-session.ts';

const { allSubjects, precisionLine, resultLine, selfTest, undeclaredPrerequisites } = selftest;

/**
 * The part of the self-test a file runs: the subjects `pick` selects (given their index in the full list), or the
 * subjects given.
 */
export async function precisionSuite(part: string, pick: ((subject: Subject, index: number) => boolean) | readonly Subject[]): Promise<void> {
  const subjects = typeof pick === 'function' ? (await allSubjects()).filter(pick) : pick;
  const results: SelfTestResult[] = [];
  const session = useSession();
  afterAll(() => {
    process.stdout.write(`self-test, ${part}: ${precisionLine(results)}\n`);
  });

  describe(`precision self-test: ${part}`, () => {
    it('has subjects to run', () => {
      expect(subjects.length).toBeGreaterThan(0);
    });
    it.each(subjects.map((s) => [`${s.kind} ${s.id}`, s] as const))('%s', async (_name, subject) => {
      let undeclared: string[] = [];
      const result = await selfTest(session(), subject, { runs: 1, inspect: (report) => (undeclared = undeclaredPrerequisites(report)) });
      results.push(result);
      expect(result.kind, resultLine(result)).toBe(subject.kind === 'reference' ? 'clean' : 'caught');
      // Every prerequisite a skipped check names is one its rules are declared to build on (the catalog's dependsOn).
      expect(undeclared).toEqual([]);
    }, 120_000);
  });
}
