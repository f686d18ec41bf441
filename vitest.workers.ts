import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * How many test files a package's vitest runs side by side. Most of a file's time is spent waiting
 * on servers and child processes, so two files side by side keep two cores busy (vitest's default,
 * one fewer than the cores, runs them one by one there).
 */
export const maxWorkers = Math.max(2, availableParallelism() - 1);

/**
 * A project's test options for running its files side by side. When several projects run in one
 * vitest (the root config, CI's other Node majors), vitest runs projects whose `maxWorkers`
 * differs in separate sequence groups: these projects form group 1, after the others' group 0.
 */
export const sideBySide = { maxWorkers, sequence: { groupOrder: 1 } };

/**
 * `sideBySide` for a project whose long files spend most of their time waiting on servers in
 * processes of their own, each in turn (the kit's tests against the framework apps): one file
 * more than the cores, so that the cores stay busy while files wait. Its own sequence group, as
 * its `maxWorkers` may differ from `sideBySide`'s. A vitest run beside another on the same cores
 * (CI's other Node majors, beside the test command) sets `TESTS_BESIDE_ANOTHER_RUN=1`: there the
 * other run fills the waits, and one more file would only load the cores.
 */
export const waitingSideBySide = {
  maxWorkers:
    process.env.TESTS_BESIDE_ANOTHER_RUN === '1' ? maxWorkers : availableParallelism() + 1,
  sequence: { groupOrder: 2 },
};

/**
 * Test files that run for minutes though their source is short or middling: each drives one
 * server after another. Without the durations of an earlier run (a new clone, as in CI), vitest
 * starts the largest files first, and these would start among the last and keep one worker busy
 * alone at the end. They start first, longest first; the files of a project still run together,
 * projects in vitest's order.
 */
export const LONG_RUNNING_FILES = [
  'packages/conformance/test/framework-apps.test.ts',
  'packages/conformance/test/framework-apps-proxy.test.ts',
  'packages/conformance/test/faults.test.ts',
  'packages/conformance/test/framework-apps-fuzzed.test.ts',
  'packages/conformance/test/prism-proxy.test.ts',
];

const repoRoot = fileURLToPath(new URL('.', import.meta.url));
for (const file of LONG_RUNNING_FILES) {
  if (!existsSync(join(repoRoot, file))) {
    throw new Error(`vitest.workers.ts: ${file} (LONG_RUNNING_FILES) does not exist`);
  }
}

/** Vitest's order of a run's files, with `LONG_RUNNING_FILES` first within their project. */
export class LongRunningFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = LONG_RUNNING_FILES.indexOf(relative(repoRoot, file.moduleId));
      return index === -1 ? LONG_RUNNING_FILES.length : index;
    };
    // Vitest's order keeps each project's files together: each such stretch is sorted by rank,
    // the files of one rank in vitest's order (Array.prototype.sort is stable).
    const stretches: TestSpecification[][] = [];
    for (const file of await super.sort(files)) {
      const last = stretches.at(-1);
      if (last?.[0]?.project === file.project) last.push(file);
      else stretches.push([file]);
    }
    return stretches.flatMap((stretch) => stretch.sort((a, b) => rank(a) - rank(b)));
  }
}
