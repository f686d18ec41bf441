/**
 * Versions of the workspace's packages named in the READMEs, the Action and the docs. Every such
 * mention must be the package's own version (its package.json): a reader copies it.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { workspacePackages } from './workspace.js';

/** One version of a package named in a file, and the version it must be. */
export interface VersionMention {
  readonly file: string;
  readonly line: number;
  /** Where the version starts in the line (0-based). */
  readonly column: number;
  readonly package: string;
  readonly found: string;
  readonly expected: string;
}

const SEMVER = String.raw`\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?`;

/** Folders never read: dependencies, builds, generated results, release notes of past versions. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', '.turbo', 'results', 'sea']);

/**
 * The files the check reads, relative to `root`: every Markdown file but CHANGELOGs and pending
 * changesets (they describe other versions on purpose), the Action's files and the Dockerfile.
 */
export function mentionFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && path !== '.changeset') walk(path);
      } else if (entry.name.endsWith('.md') && entry.name !== 'CHANGELOG.md') {
        files.push(path);
      }
    }
  };
  walk('');
  for (const file of ['action.yml', 'Dockerfile']) {
    if (existsSync(join(root, file))) files.push(file);
  }
  const action = 'packages/conformance/action';
  if (existsSync(join(root, action))) {
    for (const name of readdirSync(join(root, action))) files.push(`${action}/${name}`);
  }
  return [...new Set(files)].sort();
}

interface Rule {
  readonly pattern: RegExp;
  /** The package the match names, or undefined when the match names none. */
  readonly packageOf: (match: RegExpExecArray, file: string) => string | undefined;
}

/** The workspace package whose folder holds `file`, if any. */
const owner = (file: string, dirs: Map<string, string>) =>
  [...dirs.entries()].find(([dir]) => file.startsWith(`${dir}/`))?.[1];

function rules(names: Set<string>, dirs: Map<string, string>): Rule[] {
  const named = (name: string | undefined) => (name && names.has(name) ? name : undefined);
  return [
    // `@animal-store/kit@1.2.3`: an npm specifier or a git tag.
    {
      pattern: new RegExp(`(@animal-store/[a-z-]+)@(${SEMVER})`, 'g'),
      packageOf: (match) => named(match[1]),
    },
    // The same, URL-encoded (a release download address).
    {
      pattern: new RegExp(`%40animal-store%2F([a-z-]+)%40(${SEMVER})`, 'g'),
      packageOf: (match) => named(`@animal-store/${match[1]}`),
    },
    // `"name": "@animal-store/kit", "version": "1.2.3"` (a JSON example).
    {
      pattern: new RegExp(`"name": "(@animal-store/[a-z-]+)", "version": "(${SEMVER})"`, 'g'),
      packageOf: (match) => named(match[1]),
    },
    // `version=1.2.3` in a package's README (a shell example) or `VERSION=1.2.3` in the API's
    // image build: that package's version.
    {
      pattern: new RegExp(String.raw`\b(version|VERSION)=(${SEMVER})\b`, 'g'),
      packageOf: (_match, file) =>
        file === 'Dockerfile' ? '@animal-store/api' : owner(file, dirs),
    },
  ];
}

/** Every version mention in the files of the workspace at `root`, right or wrong. */
export function findVersionMentions(root: string): VersionMention[] {
  const packages = workspacePackages(root);
  const versions = new Map(packages.map((pkg) => [pkg.manifest.name, pkg.manifest.version]));
  const dirs = new Map(packages.map((pkg) => [pkg.dir, pkg.manifest.name]));
  const all = rules(new Set(versions.keys()), dirs);
  const mentions: VersionMention[] = [];
  for (const file of mentionFiles(root)) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    lines.forEach((text, index) => {
      for (const rule of all) {
        for (const match of text.matchAll(rule.pattern)) {
          const name = rule.packageOf(match as RegExpExecArray, file);
          if (!name) continue;
          mentions.push({
            file,
            line: index + 1,
            column: (match.index ?? 0) + match[0].lastIndexOf(match[2] as string),
            package: name,
            found: match[2] as string,
            expected: versions.get(name) as string,
          });
        }
      }
    });
  }
  return mentions;
}

/** The mentions naming a version other than the package's own. */
export function wrongVersionMentions(root: string): VersionMention[] {
  return findVersionMentions(root).filter((mention) => mention.found !== mention.expected);
}

/**
 * Rewrites every wrong mention to the package's version (after `changeset version`); returns
 * the files changed, relative to `root`.
 */
export function fixVersionMentions(root: string): string[] {
  const byFile = new Map<string, VersionMention[]>();
  for (const mention of wrongVersionMentions(root)) {
    byFile.set(mention.file, [...(byFile.get(mention.file) ?? []), mention]);
  }
  for (const [file, mentions] of byFile) {
    const path = join(root, file);
    const lines = readFileSync(path, 'utf8').split('\n');
    // Right to left, so that a rewrite leaves the columns of the others on its line in place.
    const ordered = [...mentions].sort((a, b) => a.line - b.line || b.column - a.column);
    for (const { line, column, found, expected } of ordered) {
      const text = lines[line - 1] as string;
      lines[line - 1] = text.slice(0, column) + expected + text.slice(column + found.length);
    }
    writeFileSync(path, lines.join('\n'));
  }
  return [...byFile.keys()];
}
