// Framework apps' builds kept between runs, as Go's build cache keeps a package: each build's
// folder is named by a hash of what makes it (its input files, its command line, the tools it
// runs and the Debian packages installed), so the test files that start an app, and each Node
// major's run, build it once between them. A change to any of these makes a new build; a CI
// machine starts with an empty cache.

import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, join, relative } from 'node:path';

/** The repository's folder of what its tests keep between runs. */
export const CACHE_ROOT = join(
  process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
  'animal-store',
);

/** Where the builds are kept. */
export const BUILD_CACHE = join(CACHE_ROOT, 'framework-builds');

/**
 * Debian's record of the packages installed: the libraries and headers a build reads are among
 * them, and installing or upgrading any package rewrites it.
 */
const DPKG_STATUS = '/var/lib/dpkg/status';

/** What a build is made from. */
export interface BuildInputs {
  /** Files and folders (read whole, every file in them) whose contents the build reads. */
  readonly files: readonly string[];
  /** The command line, with placeholders for the paths that differ between builds. */
  readonly command: readonly string[];
  /** The commands it runs, looked up on PATH: each one's file, its size and its time. */
  readonly tools: readonly string[];
}

/** Every file under `path` (itself when it is a file), sorted. */
async function filesUnder(path: string): Promise<string[]> {
  if (!(await stat(path)).isDirectory()) return [path];
  const entries = await readdir(path, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** The file `command` runs from PATH, with its size and time; `missing` when none. */
async function toolIdentity(command: string): Promise<string> {
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    if (folder === '') continue;
    const candidate = join(folder, command);
    try {
      const file = await realpath(candidate);
      const { size, mtimeMs } = await stat(file);
      return `${command} ${file} ${size} ${mtimeMs}`;
    } catch {}
  }
  return `${command} missing`;
}

/** The hash that names a build of `inputs`. */
async function buildKey(inputs: BuildInputs): Promise<string> {
  const hash = createHash('sha256');
  for (const root of inputs.files) {
    for (const file of await filesUnder(root)) {
      hash.update(`file ${root} ${relative(root, file)}\0`);
      hash.update(await readFile(file));
      hash.update('\0');
    }
  }
  hash.update(`command ${inputs.command.join('\0')}\0`);
  for (const tool of inputs.tools) hash.update(`tool ${await toolIdentity(tool)}\0`);
  const packages = await stat(DPKG_STATUS).catch(() => undefined);
  hash.update(`packages ${packages?.size ?? 0} ${packages?.mtimeMs ?? 0}\0`);
  return hash.digest('hex').slice(0, 16);
}

/**
 * The folder of the build `name` of `inputs` in `cache`: kept from an earlier build, or made now
 * by `build` in a folder of its own, which becomes the kept one once the build succeeds. Two runs
 * that build at once each build; the first to finish keeps its folder, the other uses it.
 */
export async function cachedBuild(
  name: string,
  inputs: BuildInputs,
  build: (folder: string) => Promise<void>,
  cache = BUILD_CACHE,
): Promise<string> {
  const kept = join(cache, `${name}-${await buildKey(inputs)}`);
  if (await stat(kept).catch(() => undefined)) return kept;
  const folder = join(cache, `.building-${name}-${randomUUID()}`);
  await mkdir(folder, { recursive: true });
  try {
    await build(folder);
    await rename(folder, kept);
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    // Another run kept the same build first.
    const { code } = error as NodeJS.ErrnoException;
    if ((code === 'ENOTEMPTY' || code === 'EEXIST') && (await stat(kept).catch(() => false))) {
      return kept;
    }
    throw error;
  }
  return kept;
}
