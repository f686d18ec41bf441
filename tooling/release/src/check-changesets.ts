/**
 * The CI check that a change to a public package comes with a changeset.
 *
 * Compares the working tree (commits, staged, unstaged and untracked files) with the merge base
 * of HEAD and the base branch, and fails when files of a public package changed but no changeset
 * added since then names that package. Escape hatches: an empty changeset (`pnpm changeset
 * --empty`) for a change that needs no release, which speaks for the packages changed with it
 * (in the commit that added it, or in the working tree while it is uncommitted), or
 * SKIP_CHANGESET_CHECK=1.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CHANGESET_DIR,
  isChangesetFile,
  parseChangesetFile,
  releasesPackage,
} from './changesets.js';
import { git, gitMaybe, paths } from './git.js';
import { publicPackages } from './workspace.js';

/** Files of a public package whose change needs no release (paths inside the package). */
export const NO_RELEASE_NEEDED: readonly RegExp[] = [
  /^test\//,
  /\.test\.[cm]?[jt]s$/,
  /^vitest\.config\.[cm]?[jt]s$/,
  /^tsconfig\.json$/,
  /^README\.md$/,
  /^CHANGELOG\.md$/,
  /^api-report\.json$/,
];

export interface CheckOptions {
  /** Any folder inside the repository. */
  readonly cwd: string;
  /** Reads CHANGESET_BASE (a ref to compare with) and SKIP_CHANGESET_CHECK. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

export interface CheckOutcome {
  readonly ok: boolean;
  /** What the check found, one line each. */
  readonly lines: readonly string[];
}

/** The check could not run as asked (a CHANGESET_BASE that is no commit, a broken changeset). */
export class CheckError extends Error {
  readonly exitCode = 2;
}

export const FIX_HINT =
  'Add a changeset naming each package above: run `pnpm changeset`, pick the package and the bump, ' +
  'describe the change and commit the file. A change that needs no release (tooling, comments) ' +
  'takes an empty one: `pnpm changeset --empty`. See RELEASING.md.';

type Base = { readonly rev: string; readonly label: string } | { readonly none: string };

function baseBranch(root: string): string {
  try {
    const config = JSON.parse(readFileSync(join(root, CHANGESET_DIR, 'config.json'), 'utf8'));
    return typeof config.baseBranch === 'string' ? config.baseBranch : 'main';
  } catch {
    return 'main';
  }
}

function resolveBase(root: string, env: CheckOptions['env']): Base {
  const given = env.CHANGESET_BASE?.trim();
  if (given) {
    if (gitMaybe(root, ['rev-parse', '--verify', '--quiet', `${given}^{commit}`]) === undefined) {
      throw new CheckError(`CHANGESET_BASE=${given} is not a commit of this repository`);
    }
    const rev = gitMaybe(root, ['merge-base', 'HEAD', given])?.trim();
    if (!rev) throw new CheckError(`HEAD and CHANGESET_BASE=${given} have no common ancestor`);
    return { rev, label: `CHANGESET_BASE=${given}` };
  }
  const branch = baseBranch(root);
  const candidates = [`origin/${branch}`, branch];
  const found = candidates.find(
    (ref) => gitMaybe(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]) !== undefined,
  );
  if (!found) {
    return {
      none:
        `neither ${candidates.join(' nor ')} exists in this clone (a single-branch clone?); ` +
        'set CHANGESET_BASE=<ref> to compare with another ref',
    };
  }
  const rev = gitMaybe(root, ['merge-base', 'HEAD', found])?.trim();
  if (!rev) return { none: `HEAD and ${found} share no commit here (a shallow clone?)` };
  return { rev, label: found };
}

/** Files that differ from `base`: committed, staged or not, and untracked ones git does not ignore. */
function changedFiles(root: string, base: string): { all: string[]; added: string[] } {
  const diff = (...options: string[]) =>
    paths(git(root, ['diff', '--name-only', '--no-renames', '-z', ...options, base, '--']));
  const untracked = paths(git(root, ['ls-files', '--others', '--exclude-standard', '-z']));
  const all = new Set([...diff(), ...untracked]);
  const added = new Set([...diff('--diff-filter=A'), ...untracked]);
  return { all: [...all].sort(), added: [...added].sort() };
}

/**
 * The files changed together with the changeset `file`: in the commit since `base` that added
 * it, or, while it is not committed, every file that differs from HEAD.
 */
function changedWith(root: string, base: string, file: string): Set<string> {
  const log = git(root, ['log', '--diff-filter=A', '--format=%H', `${base}..HEAD`, '--', file]);
  const commit = log.split('\n')[0]?.trim();
  if (commit) {
    return new Set(
      paths(
        git(root, [
          'diff-tree',
          '--no-commit-id',
          '--name-only',
          '--no-renames',
          '-r',
          '-z',
          commit,
        ]),
      ),
    );
  }
  return new Set(changedFiles(root, 'HEAD').all);
}

function versionAt(root: string, rev: string, dir: string): string | undefined {
  const text = gitMaybe(root, ['show', `${rev}:${dir}/package.json`]);
  if (text === undefined) return undefined;
  try {
    return (JSON.parse(text) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

const countFiles = (n: number) => `${n} file${n === 1 ? '' : 's'} changed`;

/** Runs the check; never exits the process (see check-changesets-cli.ts for that). */
export function checkChangesets({ cwd, env }: CheckOptions): CheckOutcome {
  if (env.SKIP_CHANGESET_CHECK === '1') {
    return { ok: true, lines: ['SKIP_CHANGESET_CHECK=1: not checking for changesets'] };
  }
  const root = gitMaybe(cwd, ['rev-parse', '--show-toplevel'])?.trim();
  if (!root) return { ok: true, lines: [`${cwd} is not in a git repository: nothing to compare`] };
  const base = resolveBase(root, env);
  if ('none' in base) return { ok: true, lines: [`not checking for changesets: ${base.none}`] };

  const lines = [`comparing with ${base.label} (merge base ${base.rev.slice(0, 12)})`];
  const files = changedFiles(root, base.rev);
  const changesets = files.added
    .filter(isChangesetFile)
    .map((file) => parseChangesetFile(file, readFileSync(join(root, file), 'utf8')));
  const empty = changesets
    .filter((changeset) => changeset.releases.length === 0)
    .map(({ file }) => ({ file, with: changedWith(root, base.rev, file) }));

  let ok = true;
  let changedAny = false;
  for (const { dir, manifest } of publicPackages(root)) {
    const own = files.all
      .filter((file) => file.startsWith(`${dir}/`))
      .map((file) => file.slice(dir.length + 1))
      .filter((file) => !NO_RELEASE_NEEDED.some((pattern) => pattern.test(file)));
    if (own.length === 0) continue;
    changedAny = true;
    const what = `${manifest.name}: ${countFiles(own.length)}`;
    const covering = changesets.filter((changeset) => releasesPackage(changeset, manifest.name));
    // An empty changeset speaks for the change it came with, not for every package of the branch.
    const excusing = empty.filter((changeset) =>
      own.some((file) => changeset.with.has(`${dir}/${file}`)),
    );
    const before = versionAt(root, base.rev, dir);
    if (covering.length > 0) {
      lines.push(`${what}; named by ${covering.map((c) => c.file).join(', ')}`);
    } else if (before !== undefined && before !== manifest.version) {
      lines.push(`${what}; a release (version ${before} -> ${manifest.version})`);
    } else if (excusing.length > 0) {
      lines.push(`${what}; no release needed, says the empty ${excusing[0]?.file}`);
    } else {
      ok = false;
      const shown = own.slice(0, 5).map((file) => `${dir}/${file}`);
      const more = own.length > shown.length ? `, and ${own.length - shown.length} more` : '';
      lines.push(`${what} (${shown.join(', ')}${more}) but no changeset added since names it`);
    }
  }
  if (!changedAny) lines.push('no public package changed');
  if (!ok) lines.push(FIX_HINT);
  return { ok, lines };
}
