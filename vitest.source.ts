// Tests import the workspace's packages from their source: each import of a workspace package
// (`@animal-store/contract`, `@animal-store/api/mongo`, …) resolves to the file that
// tsconfig.source.json maps it to, the map type checks use too. So a test run sees the current
// source of what it imports, built or not. Aliases, not an export condition: Vitest hands its
// conditions to Node, which would then load a package's TypeScript source wherever Node itself
// resolves it (an installed tarball, a spawned process). What a test spawns or reads from dist/
// comes from the build that each package's `test` script runs first.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('./', import.meta.url);
const { paths } = JSON.parse(readFileSync(new URL('tsconfig.source.json', root), 'utf8'))
  .compilerOptions as { paths: Record<string, [string]> };

/** The workspace packages' import specifiers, each to its source file. */
export const sourceAliases = {
  resolve: {
    alias: Object.entries(paths).map(([name, [file]]) => ({
      find: new RegExp(`^${name}$`),
      replacement: fileURLToPath(new URL(file, root)),
    })),
  },
};
