import { defineProject } from 'vitest/config';
import { sourceAliases } from '../../vitest.source.js';

export default defineProject({
  ...sourceAliases,
  test: {
    name: 'contract',
    include: ['test/**/*.test.ts'],
    // A worker's files share one module graph (what they import loads once per worker): none
    // mocks a module or fakes a timer.
    isolate: false,
    testTimeout: 5 * 60_000,
  },
});
