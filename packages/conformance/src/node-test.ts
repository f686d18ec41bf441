import { describe, test } from 'node:test';
import { CheckFailure, type SuiteInput, type SuiteSelection, sharedRun } from './suite.js';

export type { SuiteInput, SuiteOptions, SuiteSelection } from './suite.js';

/**
 * Registers every conformance check as a test case of a `node:test` suite named `name`: a failed
 * check fails its test, a skipped one is skipped with the reason, an advisory passes with a
 * diagnostic. One run of the kit serves the whole suite; it starts with the first test case.
 */
export function conformanceSuite(
  input: SuiteInput,
  options: SuiteSelection & { readonly name?: string } = {},
): void {
  const run = sharedRun(input, options);
  describe(options.name ?? 'Animal Store conformance', () => {
    for (const id of run.ids) {
      test(id, async (t) => {
        const result = await run.result(id);
        if (result.outcome === 'fail') throw new CheckFailure(result);
        if (result.outcome === 'skip') t.skip(result.message);
        if (result.outcome === 'advisory') {
          t.diagnostic(`advisory (should, ${result.section}): ${result.message}`);
        }
      });
    }
  });
}
