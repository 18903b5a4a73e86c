import { describe, expect, it } from 'vitest';
import { env02Problems } from './index.ts';

describe('ENV-02 judge (the client suite and observe)', () => {
  it('finds nothing when the token comes from the environment called, or its environment is not known', () => {
    expect(env02Problems({ calledEnv: 'cert', tokenEnv: 'cert', what: 'GET /v1/x' })).toEqual([]);
    expect(env02Problems({ calledEnv: 'prod', tokenEnv: undefined, what: 'GET /v1/x' })).toEqual([]);
  });

  it('breaks both clauses, in the same words, when a token of one environment goes to the other', () => {
    const problems = env02Problems({ calledEnv: 'prod', tokenEnv: 'cert', what: 'POST /websvc BargainFinderMaxRQ' });
    expect(problems.map((p) => p.clause)).toEqual(['ENV-02.token-from-called-environment', 'ENV-02.no-cross-environment-token']);
    for (const p of problems) {
      expect(p).toMatchObject({ message: 'the client sent a CERT token to PROD (POST /websvc BargainFinderMaxRQ)', expected: 'a token from PROD', actual: 'a token from CERT' });
    }
  });
});
