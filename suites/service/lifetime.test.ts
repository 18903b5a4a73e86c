import fc from 'fast-check';
import { accepted, callApi, obtainToken } from '../../harness/checks/rest.ts';
import { expectThat, ruleProperty, ruleTest } from '../../harness/checks/index.ts';
import { limits, restEndpoints } from '../../harness/spec/index.ts';

const themes = restEndpoints.find((e) => e.key === 'shop-themes')!;
const LIFETIME = limits.accessTokenLifetimeSeconds;

ruleProperty(
  'LIFE-01',
  'a sessionless token is valid until expires_in seconds after it was issued and refused afterwards',
  fc.record({ before: fc.integer({ min: 0, max: LIFETIME - 1 }), after: fc.integer({ min: 1, max: LIFETIME }) }),
  async (ctx, { before, after }) => {
    const control = ctx.target.control!;
    const token = await obtainToken(ctx, 'cert');
    await control.advanceClock(before);
    const early = await callApi(ctx, 'cert', themes, token);
    expectThat(accepted(early), `the token was refused ${before} s after it was issued, before expires_in (${LIFETIME} s)`, { expected: '2xx', actual: early.status });
    await control.advanceClock(LIFETIME - before + after - 1);
    const late = await callApi(ctx, 'cert', themes, token);
    expectThat(!accepted(late), `the token was still accepted ${LIFETIME + after - 1} s after it was issued, past expires_in (${LIFETIME} s)`, { expected: 'a refusal', actual: late.status });
  },
  { numRuns: 10 },
);

ruleTest('LIFE-01', 'a token is accepted one second before expires_in and refused at expires_in', async (ctx) => {
  const control = ctx.target.control!;
  const token = await obtainToken(ctx, 'cert');
  await control.advanceClock(LIFETIME - 1);
  const early = await callApi(ctx, 'cert', themes, token);
  expectThat(accepted(early), `the token was refused ${LIFETIME - 1} s after it was issued`, { expected: '2xx', actual: early.status });
  await control.advanceClock(1);
  const late = await callApi(ctx, 'cert', themes, token);
  expectThat(!accepted(late), `the token was still accepted ${LIFETIME} s after it was issued`, { expected: 'a refusal', actual: late.status });
});

ruleTest('LIFE-02', 'after the old token expired, a newly requested token works', async (ctx) => {
  const control = ctx.target.control!;
  const old = await obtainToken(ctx, 'cert');
  await control.advanceClock(LIFETIME + 60);
  const refused = await callApi(ctx, 'cert', themes, old);
  expectThat(!accepted(refused), 'the expired token is still accepted (see LIFE-01)', { expected: 'a refusal', actual: refused.status });
  const fresh = await obtainToken(ctx, 'cert');
  expectThat(fresh !== old, 'the token endpoint answered with the expired token again', { expected: 'a new token', actual: 'the expired token' });
  const res = await callApi(ctx, 'cert', themes, fresh);
  expectThat(accepted(res), 'the newly requested token is refused', { expected: '2xx', actual: res.status });
});
