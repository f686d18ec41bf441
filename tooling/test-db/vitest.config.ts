import { defineProject } from 'vitest/config';
import { sourceAliases } from '../../vitest.source.js';

export default defineProject({
  ...sourceAliases,
  test: {
    name: 'test-db',
    include: ['test/**/*.test.ts'],
    // One server for the run, as other packages use it; the first FerretDB build can take minutes.
    globalSetup: ['./src/vitest-global-setup.ts'],
    hookTimeout: 300_000,
    testTimeout: 5 * 60_000,
  },
});
