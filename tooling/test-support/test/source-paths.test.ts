import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const json = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));

/** The source of each built export of the workspace's packages (dist/x.js: src/x.ts), by specifier. */
function sourceExports(): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const group of ['apps', 'packages', 'tooling']) {
    for (const dir of readdirSync(join(ROOT, group))) {
      let manifest: { name: string; exports?: Record<string, unknown> };
      try {
        manifest = json(`${group}/${dir}/package.json`);
      } catch {
        continue;
      }
      for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
        const built = (target as Record<string, string>).default;
        const module = built === undefined ? null : /^\.\/dist\/(.+)\.js$/.exec(built);
        if (!module) continue;
        const name = manifest.name + (subpath === '.' ? '' : subpath.slice(1));
        found[name] = [`./${group}/${dir}/src/${module[1]}.ts`];
      }
    }
  }
  return found;
}

describe('tsconfig.source.json', () => {
  it('maps each workspace export to the source its `@animal-store/source` condition names', () => {
    const { paths } = json('tsconfig.source.json').compilerOptions;
    expect(Object.keys(sourceExports())).toContain('@animal-store/contract');
    expect(paths).toEqual(sourceExports());
    for (const [file] of Object.values(paths as Record<string, [string]>)) {
      expect(existsSync(join(ROOT, file)), file).toBe(true);
    }
  });
});
