import { defineProject } from 'vitest/config';
import { sourceAliases } from '../../vitest.source.js';
import { sideBySide } from '../../vitest.workers.js';

export default defineProject({
  ...sourceAliases,
  test: {
    name: 'release',
    include: ['test/**/*.test.ts'],
    ...sideBySide,
    // Packing and installing the tarballs with npm takes tens of seconds on a cold npm cache.
    hookTimeout: 180_000,
    testTimeout: 5 * 60_000,
  },
});
