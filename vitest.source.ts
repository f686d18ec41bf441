// Tests import the workspace's packages from their source (each package's `@animal-store/source`
// export condition; tsconfig.source.json maps the same files for type checks), so a test run
// sees the current source of what it imports, built or not. What a test spawns or reads from
// dist/ comes from the build that each package's `test` script runs first.
const SOURCE = '@animal-store/source';

/**
 * Vitest's default conditions, after the source condition. Vitest hands the SSR ones to Node for
 * the dependencies it does not transform, so they hold no `module` (ES builds Node cannot load).
 */
export const sourceConditions = {
  resolve: { conditions: [SOURCE, 'module', 'browser', 'development|production'] },
  ssr: { resolve: { conditions: [SOURCE, 'node', 'development|production'] } },
};
