import { defineProject } from 'vitest/config';
import { sourceAliases } from '../../vitest.source.js';

export default defineProject({
  ...sourceAliases,
  test: { name: 'test-support', include: ['test/**/*.test.ts'], testTimeout: 5 * 60_000 },
});
