import { describe, expect, it } from 'vitest';
import { errorCode, toTestRecord } from './record.ts';

describe('toTestRecord', () => {
  it('reads title, file, state, errors, meta, duration and skip note', () => {
    const record = toTestRecord({
      id: '1',
      name: 'REST-03: x',
      project: { name: 'conformance' },
      module: { moduleId: '/repo/suites/service/rest.test.ts', relativeModuleId: 'suites/service/rest.test.ts' },
      result: () => ({
        state: 'failed',
        errors: [{ message: 'fetch failed', stack: 'at x', cause: { code: 'ECONNREFUSED' }, expected: '1', actual: '2' }],
      }),
      meta: () => ({ tds: { failure: { message: 'm' } } }),
      diagnostic: () => ({ duration: 12.3456 }),
    });
    expect(record).toEqual({
      title: 'REST-03: x',
      file: 'suites/service/rest.test.ts',
      state: 'failed',
      errors: [{ message: 'fetch failed', stack: 'at x', code: 'ECONNREFUSED', expected: '1', actual: '2' }],
      meta: { failure: { message: 'm' } },
      durationMs: 12,
    });
  });
});

describe('errorCode', () => {
  it('finds the first string code along the cause chain', () => {
    expect(errorCode({ message: 'a', cause: { cause: { code: 'UND_ERR_CONNECT_TIMEOUT' } } })).toBe('UND_ERR_CONNECT_TIMEOUT');
    expect(errorCode({ code: 'TIMEOUT', cause: { code: 'ECONNRESET' } })).toBe('TIMEOUT');
    expect(errorCode({ code: 42 })).toBeUndefined();
    expect(errorCode('text')).toBeUndefined();
  });
});
