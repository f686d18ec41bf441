import { defineProject } from 'vitest/config';
import { sourceConditions } from '../../vitest.source.js';

export default defineProject({
  ...sourceConditions,
  test: { name: 'bench', include: ['test/**/*.test.ts'], testTimeout: 20 * 60_000 },
});
