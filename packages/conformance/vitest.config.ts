import { defineConfig } from 'vitest/config';
import { sourceAliases } from '../../vitest.source.js';
import { LongRunningFirst, waitingSideBySide } from '../../vitest.workers.js';

export default defineConfig({
  ...sourceAliases,
  // Timeouts catch hangs, never slowness: the gap suites run many kit runs at once, and CI
  // machines are small and may be busy.
  test: {
    name: 'conformance',
    include: ['test/**/*.test.ts'],
    ...waitingSideBySide,
    // Run alone (the test command), this file is vitest's whole config: the order of its files.
    sequence: { ...waitingSideBySide.sequence, sequencer: LongRunningFirst },
    // A worker's files share one module graph (the kit, the contract, TypeBox load once per
    // worker): their helpers register no hooks when they load, and the one file that mocks a
    // module resets the registry after it.
    isolate: false,
    testTimeout: 10 * 60_000,
    hookTimeout: 10 * 60_000,
  },
});
