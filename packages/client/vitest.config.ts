import { defineProject } from 'vitest/config';
import { sourceConditions } from '../../vitest.source.js';

export default defineProject({
  ...sourceConditions,
  test: { name: 'client', include: ['test/**/*.test.ts'], testTimeout: 5 * 60_000 },
});
