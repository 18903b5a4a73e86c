/**
 * `test.prop` as @fast-check/vitest gives it (its tuple and record forms, the `(with seed=…)` in the test's name, the
 * seed and time limit of fast-check's global configuration, a test for each property), for the harness's own tests,
 * which use it alone. Importing @fast-check/vitest builds a `.prop` on every chain of Vitest's test modifiers (1,957
 * of them): about 1 s of CPU in each test worker that imports it, where the tests share four. The package stays the
 * reference this one is held to (property-test.test.ts: the same names, the same values for the same seed).
 */
import fc, { type Arbitrary, type Parameters } from 'fast-check';
import { test as vitestTest } from 'vitest';

type ArbitraryTuple<Ts extends [unknown] | unknown[]> = { [P in keyof Ts]: Arbitrary<Ts[P]> };
type ArbitraryRecord<Ts> = { [P in keyof Ts]: Arbitrary<Ts[P]> };
type Outcome = boolean | void | PromiseLike<boolean | void>;
type Prop<Ts extends [unknown] | unknown[]> = (...args: Ts) => Outcome;
type PropRecord<Ts> = (arg: Ts) => Outcome;
/** fast-check's parameters, less the reporters (a record property would have to adapt them; no test uses them). */
type PropParameters<Ts> = Omit<Parameters<Ts>, 'reporter' | 'asyncReporter'>;

/** How a test is declared: Vitest's `test`, or one of its modifiers (`test.fails`). */
type Declare = (name: string, fn: () => Promise<void>, timeout?: number) => void;

/**
 * `test.prop(arbitraries, params)(name, body, timeout)`, declaring with `declare`: a test named `name (with seed=…)`
 * that asserts `body` over `arbitraries` (an array: one argument each; an object: one argument, a record of them) with
 * `params`, the seed being `params.seed`, else the global configuration's, else a random one.
 */
export const propOn = (declare: Declare) => function prop<Ts, TsParameters extends Ts = Ts>(
  arbitraries: Ts extends [unknown] | unknown[] ? ArbitraryTuple<Ts> : ArbitraryRecord<Ts>,
  params?: PropParameters<TsParameters>,
): (testName: string, body: Ts extends [unknown] | unknown[] ? Prop<Ts> : PropRecord<Ts>, timeout?: number) => void {
  return (testName, body, timeout) => {
    const global = fc.readConfigureGlobal();
    const seed = params?.seed ?? global.seed ?? Date.now() ^ (Math.random() * 4294967296);
    const interruptAfterTimeLimit = params?.interruptAfterTimeLimit ?? global.interruptAfterTimeLimit;
    const run = body as (...args: unknown[]) => Outcome;
    const tuple = Array.isArray(arbitraries);
    const arbs = (tuple ? arbitraries : [fc.record(arbitraries as Record<string, Arbitrary<unknown>>)]) as Arbitrary<unknown>[];
    // A record property's examples are records; the property takes them as its one argument.
    const examples = params?.examples && !tuple ? params.examples.map((example) => [example]) : params?.examples;
    const asyncProperty = fc.asyncProperty as (...args: [...Arbitrary<unknown>[], (...values: unknown[]) => Promise<Outcome>]) => fc.IAsyncProperty<unknown[]>;
    const property = asyncProperty(...arbs, (...args: unknown[]) => Promise.resolve(run(...args)));
    const assertParams = { ...params, seed, interruptAfterTimeLimit, ...(examples && { examples }) } as Parameters<unknown[]>;
    declare(`${testName} (with seed=${seed})`, async () => {
      await fc.assert(property, assertParams);
    }, timeout);
  };
};

/** The tests' `test`: `test.prop` (plain tests come from Vitest). */
export const test = { prop: propOn(vitestTest) };
export { fc };
