import { defineConfig } from 'vitest/config';
import { apiProjects } from './apps/api/vitest.projects.js';
import { LongRunningFirst } from './vitest.workers.js';

// One entry point for editors and `vitest` at the root; CI runs each package through turbo.
export default defineConfig({
  test: {
    projects: ['packages/*', 'tooling/*', ...apiProjects],
    sequence: { sequencer: LongRunningFirst },
  },
});
