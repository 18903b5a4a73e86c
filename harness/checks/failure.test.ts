import { describe, expect, it } from 'vitest';
import { CheckFailure, expectEqual, expectThat, failOn, inClause, show } from './failure.ts';

function thrown(fn: () => void): CheckFailure {
  try {
    fn();
  } catch (err) {
    if (err instanceof CheckFailure) return err;
    throw err;
  }
  throw new Error('expected a CheckFailure, nothing was thrown');
}

describe('show', () => {
  const circular: Record<string, unknown> = {};
  circular.self = circular;

  it.each([
    ['a string, quoted', 'Bearer', '"Bearer"'],
    ['a string with quotes and a newline, escaped', 'a "b"\nc', '"a \\"b\\"\\nc"'],
    ['the empty string', '', '""'],
    ['a number', 604800, '604800'],
    ['a boolean', false, 'false'],
    ['null', null, 'null'],
    ['undefined, as absent', undefined, '(absent)'],
    ['an object, as JSON', { token_type: 'bearer', expires_in: 604800 }, '{"token_type":"bearer","expires_in":604800}'],
    ['an array, as JSON', [401, 'invalid_client'], '[401,"invalid_client"]'],
    ['a function, with no JSON form', () => 1, '() => 1'],
    ['a bigint, which JSON refuses', 10n, '10'],
    ['an object with a cycle', circular, '[object Object]'],
  ])('shows %s', (_label, value, expected) => {
    expect(show(value)).toBe(expected);
  });
});

describe('CheckFailure', () => {
  it('carries the message, the default code and the shown expected and actual values', () => {
    const failure = new CheckFailure('unexpected "token_type" value', { expected: 'bearer', actual: 'Bearer' });
    expect(failure).toBeInstanceOf(Error);
    expect(failure.name).toBe('CheckFailure');
    expect(failure.message).toBe('unexpected "token_type" value');
    expect(failure.code).toBe('CHECK_FAILED');
    expect(failure.expected).toBe('"bearer"');
    expect(failure.actual).toBe('"Bearer"');
  });

  it('leaves expected and actual undefined when they are not given, and keeps a given code', () => {
    const failure = new CheckFailure('no answer', { code: 'NO_TOKEN' });
    expect(failure.code).toBe('NO_TOKEN');
    expect(failure.expected).toBeUndefined();
    expect(failure.actual).toBeUndefined();
  });

  it('shows an actual value given as undefined as "(absent)"', () => {
    const failure = new CheckFailure('no "expires_in"', { expected: 604800, actual: undefined });
    expect(failure.expected).toBe('604800');
    expect(failure.actual).toBe('(absent)');
  });
});

describe('expectEqual', () => {
  it('passes for identical values, NaN included, and for objects with the same JSON', () => {
    expect(() => expectEqual('"token_type" value', 'bearer', 'bearer')).not.toThrow();
    expect(() => expectEqual('value', Number.NaN, Number.NaN)).not.toThrow();
    expect(() => expectEqual('shape', { a: [1, 'x'] }, { a: [1, 'x'] })).not.toThrow();
  });

  it('fails with "unexpected <what>" and both values shown', () => {
    const failure = thrown(() => expectEqual('"token_type" value', 'Bearer', 'bearer'));
    expect(failure.message).toBe('unexpected "token_type" value');
    expect(failure.code).toBe('CHECK_FAILED');
    expect(failure.expected).toBe('"bearer"');
    expect(failure.actual).toBe('"Bearer"');
  });

  it('tells a string from a number of the same digits', () => {
    const failure = thrown(() => expectEqual('"expires_in" value', '604800', 604800));
    expect(failure.expected).toBe('604800');
    expect(failure.actual).toBe('"604800"');
  });

  it('shows an absent actual value as "(absent)"', () => {
    const failure = thrown(() => expectEqual('"token_type" value', undefined, 'bearer'));
    expect(failure.expected).toBe('"bearer"');
    expect(failure.actual).toBe('(absent)');
  });

  it('compares objects through their JSON and keeps a given code', () => {
    const failure = thrown(() => expectEqual('token error', { error: 'unauthorized_client' }, { error: 'invalid_client' }, 'WRONG_ERROR'));
    expect(failure.code).toBe('WRONG_ERROR');
    expect(failure.expected).toBe('{"error":"invalid_client"}');
    expect(failure.actual).toBe('{"error":"unauthorized_client"}');
  });
});

describe('expectThat', () => {
  it('passes when the condition holds', () => {
    expect(() => expectThat(true, 'never shown')).not.toThrow();
  });

  it('fails with the message and the details given', () => {
    const failure = thrown(() => expectThat(false, 'the token obtained is refused by an API', { expected: '2xx', actual: 401, code: 'TOKEN_REFUSED' }));
    expect(failure.message).toBe('the token obtained is refused by an API');
    expect(failure.code).toBe('TOKEN_REFUSED');
    expect(failure.expected).toBe('"2xx"');
    expect(failure.actual).toBe('401');
  });

  it('fails with no expected or actual values when none are given', () => {
    const failure = thrown(() => expectThat(false, 'the expired token is still accepted'));
    expect(failure.message).toBe('the expired token is still accepted');
    expect(failure.code).toBe('CHECK_FAILED');
    expect(failure.expected).toBeUndefined();
    expect(failure.actual).toBeUndefined();
  });
});

describe('inClause and failOn: the clause a failure breaks', () => {
  it('gives a failure without a clause the one it runs for, keeping its message, code and values', async () => {
    const err = await inClause('ERR-01.bad-base64', () => {
      throw new CheckFailure('no syntax error stated', { code: 'X', expected: 'a', actual: 'b' });
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CheckFailure);
    expect(err).toMatchObject({ message: 'no syntax error stated', code: 'X', expected: '"a"', actual: '"b"', clause: 'ERR-01.bad-base64' });
  });

  it('keeps a failure\'s own clause, lets other errors through, and returns what the body returns', async () => {
    await expect(inClause('A-01.x', () => failOn({ clause: 'A-01.y', message: 'm', expected: 'e', actual: 'a' }))).rejects.toMatchObject({ clause: 'A-01.y' });
    await expect(inClause('A-01.x', () => { throw new TypeError('t'); })).rejects.toBeInstanceOf(TypeError);
    expect(await inClause('A-01.x', async () => 7)).toBe(7);
  });
});
