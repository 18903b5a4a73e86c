import { describe, expect, it } from 'vitest';
import { err03Unchecked, err07AnswerProblem } from './token-errors.ts';

describe('ERR-03 coverage: the clauses no answer exercised', () => {
  it('reports every clause unchecked when no token error was judged (all timed out or were dropped)', () => {
    expect(err03Unchecked({ answers: 0, invalidClient: 0 }).map((u) => u.clause)).toEqual(['ERR-03.status-401', 'ERR-03.json-body', 'ERR-03.no-secret']);
  });

  it('reports the 401 clause unchecked when no answer said invalid_client, and nothing when both were seen', () => {
    expect(err03Unchecked({ answers: 3, invalidClient: 0 })).toEqual([{ clause: 'ERR-03.status-401', reason: 'none of the 3 token errors received said "invalid_client"' }]);
    expect(err03Unchecked({ answers: 3, invalidClient: 1 })).toEqual([]);
  });
});

describe('ERR-07.rest-malformed: the answer to a malformed token request', () => {
  it('takes any error status for a clearly invalid request (latitude malformed-request-answers), a 4xx or a 5xx', () => {
    for (const status of [400, 401, 415, 422, 500, 502]) expect(err07AnswerProblem(status, 'error', 'a token request with binary garbage')).toBeUndefined();
  });

  it('fails a success for a clearly invalid request, and lets a lenient service serve the others', () => {
    expect(err07AnswerProblem(200, 'error', 'a token request with no body')).toMatchObject({ clause: 'ERR-07.rest-malformed', message: 'a token request with no body was not answered with an error' });
    expect(err07AnswerProblem(200, 'any', 'a token request with a JSON body')).toBeUndefined();
  });
});
