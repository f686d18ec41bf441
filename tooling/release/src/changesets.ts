import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import parseChangeset from '@changesets/parse';

/** The folder changesets keeps its config and pending changesets in. */
export const CHANGESET_DIR = '.changeset';

/** A pending changeset: its id (the file name without `.md`) and the packages it releases. */
export interface Changeset {
  readonly id: string;
  /** Path relative to the repository root, e.g. `.changeset/brave-lions-jump.md`. */
  readonly file: string;
  readonly releases: readonly { readonly name: string; readonly type: string }[];
}

/** Whether `file` (relative to the repository root) is a changeset, not the folder's README. */
export function isChangesetFile(file: string): boolean {
  return /^\.changeset\/[^/]+\.md$/.test(file) && file !== '.changeset/README.md';
}

/** Parses one changeset file's text, naming the file in the error when it is malformed. */
export function parseChangesetFile(file: string, text: string): Changeset {
  const id = file.replace(/^.*\//, '').replace(/\.md$/, '');
  try {
    return { id, file, releases: parseChangeset(text).releases };
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`);
  }
}

/** Reads every pending changeset of the repository at `root`, sorted by id. */
export function readChangesets(root: string): Changeset[] {
  let names: string[];
  try {
    names = readdirSync(join(root, CHANGESET_DIR));
  } catch {
    return [];
  }
  return names
    .map((name) => `${CHANGESET_DIR}/${name}`)
    .filter(isChangesetFile)
    .sort()
    .map((file) => parseChangesetFile(file, readFileSync(join(root, file), 'utf8')));
}

/** Whether the changeset releases the package `name` (with any bump, `none` included). */
export function releasesPackage(changeset: Changeset, name: string): boolean {
  return changeset.releases.some((release) => release.name === name);
}
