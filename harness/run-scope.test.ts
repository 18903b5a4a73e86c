import { describe, expect, it } from 'vitest';
import { enterRun, onNewRun } from './run-scope.ts';

describe('run scope', () => {
  it('forgets what a module kept for a run when the worker enters another run, and only then', () => {
    let kept = 0;
    onNewRun(() => (kept = 0));
    enterRun('run-scope-test-a');
    kept = 3;
    enterRun('run-scope-test-a'); // the next test file of the same run
    expect(kept).toBe(3);
    enterRun('run-scope-test-b');
    expect(kept).toBe(0);
  });
});
