import { fileURLToPath } from 'node:url';
import type { TestProjectInlineConfiguration } from 'vitest/config';
import { sourceAliases } from '../../vitest.source.js';
import { sideBySide } from '../../vitest.workers.js';

/**
 * The files of a worker share one module graph: the API's modules and their dependencies load once
 * per worker, not once per file, which was most of the files' CPU. No file mocks a module; a
 * helper's cleanup runs from a setup file, which runs for each file.
 */
const oneModuleGraph = { isolate: false, setupFiles: ['test/helpers/after-each-file.ts'] };

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The README's start command runs `turbo run build`, whose cache hit rewrites `dist/` (a new file
 * for each output). Every other test that spawns the API from `dist/` would race it, so this file
 * is its own project, `api-start`, which the root test command runs after every other test.
 */
const START_SCRIPT = 'test/start-script.test.ts';

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
      exclude: ['test/mongo/**', START_SCRIPT],
      ...sideBySide,
      ...oneModuleGraph,
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
      ...oneModuleGraph,
      // Starts one MongoDB-compatible server for the run; fails (never skips) without one.
      globalSetup: ['@animal-store/test-db/vitest-global-setup'],
      // The first run may build FerretDB (a minute or two on 2 cores).
      hookTimeout: 300_000,
      testTimeout: 5 * 60_000,
    },
  },
  {
    ...sourceAliases,
    test: { name: 'api-start', root, include: [START_SCRIPT], testTimeout: 5 * 60_000 },
  },
];
