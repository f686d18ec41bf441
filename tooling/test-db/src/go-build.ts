import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { findOnPath } from './find-on-path.js';
import { Unavailable } from './types.js';

const BUILD_TIMEOUT_MS = 10 * 60_000;
const STALE_LOCK_MS = 15 * 60_000;
/**
 * What each of our Go modules holds, and the module they share (`replace`d in their go.mod by
 * `../wrapper`): their content names the build.
 */
const MODULE_FILES = ['go.mod', 'go.sum', 'main.go', '../wrapper/go.mod', '../wrapper/wrapper.go'];

const run = promisify(execFile);

/** One of our small Go modules (`tooling/test-db/<name>/`) and the release it pins. */
export interface GoTool {
  /** The module's folder name and the binary's, e.g. `ferretdb`. */
  name: string;
  /** For messages and the cache folder, e.g. `FerretDB`. */
  title: string;
  /** The release its go.mod pins, e.g. `v1.24.2`. */
  version: string;
}

export interface GoBuildContext {
  env: NodeJS.ProcessEnv;
  log(line: string): void;
}

/**
 * Path of `tool`'s binary, built once with `go build` from `tooling/test-db/<name>/` into
 * `${XDG_CACHE_HOME:-~/.cache}/animal-store/<name>-<version>-<hash>/` (under a lock file, so
 * parallel workers build it once) and reused after.
 */
export async function goToolBinary(tool: GoTool, context: GoBuildContext): Promise<string> {
  const moduleDir = fileURLToPath(new URL(`../${tool.name}/`, import.meta.url));
  const hash = await sourceHash(moduleDir);
  const dir = join(cacheRoot(context.env), `${tool.name}-${tool.version}-${hash}`);
  const binary = join(dir, tool.name);
  if (await exists(binary)) return binary;

  const go = await findOnPath('go', context.env);
  if (!go) {
    throw new Unavailable(
      `go is not on PATH (it is needed once to build ${tool.title} ${tool.version} into ${dir})`,
    );
  }
  await mkdir(dir, { recursive: true });
  const lock = join(dir, 'build.lock');
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  while (!(await exists(binary))) {
    if (Date.now() > deadline) {
      throw new Error(`gave up waiting for the ${tool.title} build (${lock})`);
    }
    const release = await tryLock(lock);
    if (!release) {
      await sleep(500);
      continue;
    }
    try {
      if (!(await exists(binary))) await build(tool, go, moduleDir, binary, context);
    } finally {
      await release();
    }
  }
  return binary;
}

async function build(
  tool: GoTool,
  go: string,
  moduleDir: string,
  binary: string,
  context: GoBuildContext,
): Promise<void> {
  const what = `${tool.title} ${tool.version}`;
  context.log(`test-db: building ${what} with ${go} once (a minute or two the first time)`);
  const partial = `${binary}.partial-${process.pid}`;
  const started = Date.now();
  try {
    await run(go, ['build', '-trimpath', '-buildvcs=false', '-o', partial, '.'], {
      cwd: moduleDir,
      env: { ...context.env, GOTOOLCHAIN: 'local' },
      timeout: BUILD_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    await rm(partial, { force: true });
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(
      `go build of ${what} in ${moduleDir} failed: ${(stderr || message).trim().slice(-2_000)}`,
    );
  }
  await rename(partial, binary);
  context.log(`test-db: built ${tool.title} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/** Take the lock file; returns its release, or undefined while another live process holds it. */
async function tryLock(lock: string): Promise<(() => Promise<void>) | undefined> {
  try {
    const handle = await open(lock, 'wx');
    await handle.writeFile(String(process.pid));
    await handle.close();
    return () => rm(lock, { force: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if (await isStale(lock)) await rm(lock, { force: true });
  return undefined;
}

async function isStale(lock: string): Promise<boolean> {
  try {
    const [pidText, info] = await Promise.all([readFile(lock, 'utf8'), stat(lock)]);
    if (Date.now() - info.mtimeMs > STALE_LOCK_MS) return true;
    const pid = Number(pidText);
    if (!Number.isInteger(pid) || pid <= 0) return Date.now() - info.mtimeMs > 5_000;
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // ESRCH: its owner is gone; ENOENT: it was just released.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function cacheRoot(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  return join(base, 'animal-store');
}

async function sourceHash(moduleDir: string): Promise<string> {
  const hash = createHash('sha256').update(`${process.platform}-${process.arch}\n`);
  for (const file of MODULE_FILES) hash.update(await readFile(join(moduleDir, file)));
  return hash.digest('hex').slice(0, 12);
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
