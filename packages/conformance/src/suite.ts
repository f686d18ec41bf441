import { type ConformanceOptions, runConformance, selectChecks } from './run.js';
import type { CheckResult } from './types.js';

/** The options of a conformance suite in a test runner: the CLI's, without the progress handler. */
export type SuiteOptions = Omit<ConformanceOptions, 'onProgress'>;

/**
 * The options, or a function that gives them when the first check runs (once the suite's own
 * hooks have started the server); with a function, `only`, `skip` and `fixtureSet` come from `selection`,
 * since the test cases are registered before it is called.
 */
export type SuiteInput = SuiteOptions | (() => SuiteOptions | Promise<SuiteOptions>);

/** What a suite registers when its options come from a function. */
export type SuiteSelection = Pick<SuiteOptions, 'only' | 'skip' | 'fixtureSet'>;

/** One run of the kit shared by the test cases of a suite, started by the first that asks. */
export interface SharedRun {
  /** Every selected check's id, in run order: one test case each. */
  readonly ids: readonly string[];
  /** The result of check `id`, once the run has reached it; rejects when the run cannot start. */
  result(id: string): Promise<CheckResult>;
}

/** Prepares one run of the kit whose results test cases await one by one. */
export function sharedRun(input: SuiteInput, selection: SuiteSelection = {}): SharedRun {
  const select = typeof input === 'function' ? selection : input;
  const withSet = (select.fixtureSet?.length ?? 0) > 0;
  const ids = selectChecks(select.only, select.skip, withSet).map((c) => c.id);
  const waiting = new Map(
    ids.map((id) => {
      let settle!: { resolve: (r: CheckResult) => void; reject: (e: unknown) => void };
      const promise = new Promise<CheckResult>((resolve, reject) => {
        settle = { resolve, reject };
      });
      // A check whose test case never ran (filtered by the runner) leaves no unhandled rejection.
      promise.catch(() => {});
      return [id, { promise, ...settle }] as const;
    }),
  );
  let started = false;
  const start = async () => {
    const options = typeof input === 'function' ? await input() : input;
    const report = await runConformance({
      ...options,
      only: select.only,
      skip: select.skip,
      fixtureSet: select.fixtureSet,
      onProgress: (event) => {
        if (event.type === 'check') waiting.get(event.result.id)?.resolve(event.result);
      },
    });
    for (const id of ids) {
      if (!report.results.some((r) => r.id === id)) {
        waiting.get(id)?.reject(new Error(`the run gave no result for ${id}`));
      }
    }
  };
  return {
    ids,
    result(id) {
      if (!started) {
        started = true;
        start().catch((error: unknown) => {
          for (const entry of waiting.values()) entry.reject(error);
        });
      }
      const entry = waiting.get(id);
      if (entry === undefined) return Promise.reject(new Error(`no check ${id} in this suite`));
      return entry.promise;
    },
  };
}

/** A failed check as an Error for a test runner: level, section and the kit's message. */
export class CheckFailure extends Error {
  override readonly name = 'CheckFailure';
  constructor(readonly result: CheckResult) {
    super(`${result.id} (${result.level}, ${result.section}): ${result.message}`);
  }
}
