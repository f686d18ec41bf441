import { defineProject } from 'vitest/config';
import { sourceAliases } from '../../vitest.source.js';
import { sideBySide } from '../../vitest.workers.js';

export default defineProject({
  ...sourceAliases,
  test: {
    name: 'clients',
    include: ['test/**/*.test.ts'],
    ...sideBySide,
    // One MongoDB-compatible server for the run (the official client runs on both stores); fails,
    // never skips, without one. The first run may build FerretDB.
    globalSetup: ['@animal-store/test-db/vitest-global-setup'],
    hookTimeout: 10 * 60_000,
    testTimeout: 10 * 60_000,
  },
});
