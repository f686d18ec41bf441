import { fileURLToPath } from 'node:url';
import type { TestProjectInlineConfiguration } from 'vitest/config';
import { sourceAliases } from '../../vitest.source.js';
import { sideBySide } from '../../vitest.workers.js';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The api's vitest projects, by folder: every test on the in-memory store; `test/black-box/`
 * (the HTTP suites every store adapter must pass) again on MongoDB, with `test/mongo/` (what only
 * MongoDB has).
 */
export const apiProjects: TestProjectInlineConfiguration[] = [
  {
    ...sourceAliases,
    // Timeouts catch hangs, never slowness: CI runs every package's tests at once on two cores,
    // beside whatever else the machine is doing.
    test: {
      name: 'api',
      root,
      include: ['test/**/*.test.ts'],
      exclude: ['test/mongo/**'],
      ...sideBySide,
      testTimeout: 5 * 60_000,
    },
  },
  {
    ...sourceAliases,
    test: {
      name: 'api-mongo',
      root,
      include: ['test/black-box/**/*.test.ts', 'test/mongo/**/*.test.ts'],
      env: { ANIMAL_STORE_TEST_STORE: 'mongo' },
      ...sideBySide,
      // Starts one MongoDB-compatible server for the run; fails (never skips) without one.
      globalSetup: ['@animal-store/test-db/vitest-global-setup'],
      // The first run may build FerretDB (a minute or two on 2 cores).
      hookTimeout: 300_000,
      testTimeout: 5 * 60_000,
    },
  },
];
