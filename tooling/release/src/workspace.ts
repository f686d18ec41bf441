import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The fields of a package.json the release tooling reads. */
export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly [field: string]: unknown;
}

/** A workspace package: its folder relative to the repository root, and its manifest. */
export interface WorkspacePackage {
  readonly dir: string;
  readonly manifest: Manifest;
}

export function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
}

/**
 * The `packages` globs of pnpm-workspace.yaml. Only the forms this repository uses are read:
 * `dir/*` and a plain `dir`; anything else is an error rather than a silently missed package.
 */
export function workspaceGlobs(root: string): string[] {
  const text = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const globs: string[] = [];
  let inPackages = false;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line)) inPackages = /^packages:\s*$/.test(line);
    const item = inPackages ? /^\s+-\s+['"]?([^'"#\s]+)['"]?\s*(#.*)?$/.exec(line) : null;
    if (!item?.[1]) continue;
    if (!/^[\w.-]+(\/[\w.-]+)*(\/\*)?$/.test(item[1])) {
      throw new Error(`pnpm-workspace.yaml: unsupported package glob "${item[1]}"`);
    }
    globs.push(item[1]);
  }
  return globs;
}

/** Every package of the workspace at `root`, sorted by folder. */
export function workspacePackages(root: string): WorkspacePackage[] {
  const dirs = workspaceGlobs(root).flatMap((glob) => {
    if (!glob.endsWith('/*')) return [glob];
    const parent = glob.slice(0, -2);
    if (!existsSync(join(root, parent))) return [];
    return readdirSync(join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${parent}/${entry.name}`);
  });
  return dirs
    .filter((dir) => existsSync(join(root, dir, 'package.json')))
    .sort()
    .map((dir) => ({ dir, manifest: readManifest(join(root, dir)) }));
}

/** The packages release managers publish: those not marked `private`. */
export function publicPackages(root: string): WorkspacePackage[] {
  return workspacePackages(root).filter((pkg) => pkg.manifest.private !== true);
}
