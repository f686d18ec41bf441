import { defineConfig } from 'vitest/config';

// One entry point for editors and `vitest` at the root; CI runs each package through turbo.
export default defineConfig({
  test: { projects: ['packages/*', 'apps/*', 'tooling/*'] },
});
