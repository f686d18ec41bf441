/**
 * `changeset version` on a copy of the workspace's manifests, changesets config and changelogs:
 * the bumps and changelog entries a release manager gets from a given changeset.
 */
import { copyFileSync, existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readManifest, workspacePackages } from '../src/workspace.js';
import { changesetText, REPO_ROOT, runOk, tempDir, writeFile } from './support/temp.js';

const CHANGESET = join(REPO_ROOT, 'node_modules/.bin/changeset');

/** Package folder by name, in the real workspace. */
const DIRS = Object.fromEntries(
  workspacePackages(REPO_ROOT).map((pkg) => [pkg.manifest.name, pkg.dir]),
);
const dirOf = (name: string) => DIRS[name] ?? `no package named ${name}`;
const versionNow = (name: string) => readManifest(join(REPO_ROOT, dirOf(name))).version;

/** `version` raised by a bump, as semver and changesets do (no pre-releases here). */
function bumped(version: string, type: 'major' | 'minor' | 'patch'): string {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  if (type === 'major') return `${major + 1}.0.0`;
  if (type === 'minor') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

/** Runs `changeset version` with one changeset on a fresh copy; reads the result back. */
async function versionWith(releases: Record<string, string>, summary: string) {
  const root = tempDir('version');
  for (const file of ['package.json', 'pnpm-workspace.yaml', '.changeset/config.json']) {
    writeFile(root, file, readFileSync(join(REPO_ROOT, file), 'utf8'));
  }
  for (const dir of Object.values(DIRS)) {
    writeFile(
      root,
      `${dir}/package.json`,
      readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8'),
    );
    const changelog = join(REPO_ROOT, dir, 'CHANGELOG.md');
    if (existsSync(changelog)) copyFileSync(changelog, join(root, dir, 'CHANGELOG.md'));
  }
  // The changelog generator named in config.json is resolved from the repository's packages.
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  writeFile(root, '.changeset/sample-change.md', changesetText(releases, summary));
  await runOk(CHANGESET, ['version'], { cwd: root });
  return {
    version: (name: string) => readManifest(join(root, dirOf(name))).version,
    manifest: (name: string) => readManifest(join(root, dirOf(name))),
    changelog: (name: string) => {
      const file = join(root, dirOf(name), 'CHANGELOG.md');
      return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    },
    consumed: !existsSync(join(root, '.changeset/sample-change.md')),
  };
}

const CONTRACT = '@animal-store/contract';
const KIT = '@animal-store/conformance';
const API = '@animal-store/api';

describe('changeset version', () => {
  it('takes a breaking change of the contract to a major, and bumps the kit with it', async () => {
    const result = await versionWith({ [CONTRACT]: 'major' }, 'Rename `Pet.categoryId`.');
    const contract = bumped(versionNow(CONTRACT), 'major');
    expect(result.consumed).toBe(true);
    expect(result.version(CONTRACT)).toBe(contract);
    expect(result.changelog(CONTRACT)).toMatch(
      new RegExp(
        `^# ${CONTRACT}\n\n## ${contract}\n\n### Major Changes\n\n- Rename \`Pet.categoryId\`.\n`,
      ),
    );
    // The kit's `workspace:^` range no longer admits the contract: it is released too.
    const kit = bumped(versionNow(KIT), 'patch');
    expect(result.version(KIT)).toBe(kit);
    expect(result.changelog(KIT)).toContain(
      `## ${kit}\n\n### Patch Changes\n\n- Updated dependencies\n  - ${CONTRACT}@${contract}\n`,
    );
    // The range stays a workspace one; `pnpm pack` and `pnpm publish` write the version.
    expect(result.manifest(KIT).dependencies).toMatchObject({ [CONTRACT]: 'workspace:^' });
    // Private packages (the api, the tooling) are never versioned and get no CHANGELOG.
    for (const pkg of workspacePackages(REPO_ROOT).filter((p) => p.manifest.private)) {
      const name = pkg.manifest.name as string;
      expect(result.version(name), name).toBe(versionNow(name));
      expect(result.changelog(name), name).toBe(
        existsSync(join(REPO_ROOT, pkg.dir, 'CHANGELOG.md'))
          ? readFileSync(join(REPO_ROOT, pkg.dir, 'CHANGELOG.md'), 'utf8')
          : undefined,
      );
    }
  });

  it('releases a compatible fix of the contract alone', async () => {
    const result = await versionWith({ [CONTRACT]: 'patch' }, 'Fix a description.');
    const contract = bumped(versionNow(CONTRACT), 'patch');
    expect(result.version(CONTRACT)).toBe(contract);
    expect(result.changelog(CONTRACT)).toContain(
      `## ${contract}\n\n### Patch Changes\n\n- Fix a description.\n`,
    );
    for (const name of [KIT, API]) expect(result.version(name)).toBe(versionNow(name));
    expect(result.changelog(KIT)).toBe(
      readFileSync(join(REPO_ROOT, dirOf(KIT), 'CHANGELOG.md'), 'utf8'),
    );
  });

  it('releases a new feature of the kit alone', async () => {
    const result = await versionWith({ [KIT]: 'minor' }, 'A check for `Retry-After`.');
    const kit = bumped(versionNow(KIT), 'minor');
    expect(result.version(KIT)).toBe(kit);
    expect(result.changelog(KIT)).toContain(
      `## ${kit}\n\n### Minor Changes\n\n- A check for \`Retry-After\`.\n`,
    );
    for (const name of [CONTRACT, API]) expect(result.version(name)).toBe(versionNow(name));
  });
});
