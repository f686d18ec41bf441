import { defineProject } from 'vitest/config';
import { sourceAliases } from '../../vitest.source.js';

export default defineProject({
  ...sourceAliases,
  test: {
    name: 'client',
    include: ['test/**/*.test.ts'],
    // A worker's files share one module graph (what they import loads once per worker): none
    // mocks a module, and each restores the timers it fakes.
    isolate: false,
    testTimeout: 5 * 60_000,
  },
});
