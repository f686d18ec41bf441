import { defineProject } from 'vitest/config';
import { sourceAliases } from '../../vitest.source.js';

export default defineProject({
  ...sourceAliases,
  test: {
    name: 'bench',
    include: ['test/**/*.test.ts'],
    testTimeout: 5 * 60_000,
    // The files share no state (no mocks, no globals): each worker runs its files one after the
    // other in one module graph instead of a fresh one per file, which cost most of their CPU.
    isolate: false,
  },
});
