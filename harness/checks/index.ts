export { registerTokensIn } from './evidence.ts';
export { CheckFailure, expectEqual, expectThat, show } from './failure.ts';
export { replayCommand, ruleProperty, ruleTest } from './rule-test.ts';
export { redact, registerSecret, secrets } from './secrets.ts';
export { closeTarget, currentTarget, runConfig } from './target.ts';

export type { Exchange } from './evidence.ts';
export type { CheckBody, CheckContext } from './rule-test.ts';
