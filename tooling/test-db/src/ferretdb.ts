import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { findOnPath } from './find-on-path.js';
import { startProcessServer } from './process-server.js';
import { type StartedServer, type StrategyContext, Unavailable } from './types.js';

/** The FerretDB release that tooling/test-db/ferretdb/go.mod pins. */
export const FERRETDB_VERSION = 'v1.24.2';

/** The Go module with our main.go; `src/` and `dist/` both sit next to it. */
const MODULE_DIR = fileURLToPath(new URL('../ferretdb/', import.meta.url));
const MODULE_FILES = ['go.mod', 'go.sum', 'main.go'];
const BUILD_TIMEOUT_MS = 10 * 60_000;
const STALE_LOCK_MS = 15 * 60_000;

const run = promisify(execFile);

/** Start FerretDB with SQLite on a temp dir and a free port of 127.0.0.1, building it first if needed. */
export async function startFerretdb(context: StrategyContext): Promise<StartedServer> {
  const binary = await ferretdbBinary(context);
  const server = await startProcessServer({
    name: 'ferretdb',
    command: binary,
    env: context.env,
    stdinPipe: true,
    readyTimeoutMs: context.readyTimeoutMs,
    args: (port, dataDir) => [
      `--listen-addr=127.0.0.1:${port}`,
      `--sqlite-url=file:${dataDir}/`,
      '--stop-on-stdin-close',
    ],
  });
  return { ...server, description: `FerretDB ${FERRETDB_VERSION} (SQLite)` };
}

/**
 * Path of the FerretDB binary built from tooling/test-db/ferretdb, built once with `go build` into
 * the user cache dir (guarded by a lock file so parallel workers build it once) and reused after.
 */
export async function ferretdbBinary(
  context: Pick<StrategyContext, 'env' | 'log'>,
): Promise<string> {
  const dir = join(cacheRoot(context.env), `ferretdb-${FERRETDB_VERSION}-${await sourceHash()}`);
  const binary = join(dir, 'ferretdb');
  if (await exists(binary)) return binary;

  const go = await findOnPath('go', context.env);
  if (!go) {
    throw new Unavailable(
      `go is not on PATH (it is needed once to build FerretDB ${FERRETDB_VERSION} into ${dir})`,
    );
  }
  await mkdir(dir, { recursive: true });
  const lock = join(dir, 'build.lock');
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  while (!(await exists(binary))) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for the FerretDB build (${lock})`);
    const release = await tryLock(lock);
    if (!release) {
      await sleep(500);
      continue;
    }
    try {
      if (!(await exists(binary))) await build(go, binary, context);
    } finally {
      await release();
    }
  }
  return binary;
}

async function build(
  go: string,
  binary: string,
  context: Pick<StrategyContext, 'env' | 'log'>,
): Promise<void> {
  context.log(
    `test-db: building FerretDB ${FERRETDB_VERSION} with ${go} once (a minute or two the first time)`,
  );
  const partial = `${binary}.partial-${process.pid}`;
  const started = Date.now();
  try {
    await run(go, ['build', '-trimpath', '-buildvcs=false', '-o', partial, '.'], {
      cwd: MODULE_DIR,
      env: { ...context.env, GOTOOLCHAIN: 'local' },
      timeout: BUILD_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    await rm(partial, { force: true });
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(
      `go build of FerretDB ${FERRETDB_VERSION} in ${MODULE_DIR} failed: ${(stderr || message).trim().slice(-2_000)}`,
    );
  }
  await rename(partial, binary);
  context.log(`test-db: built FerretDB in ${((Date.now() - started) / 1000).toFixed(0)} s`);
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

async function sourceHash(): Promise<string> {
  const hash = createHash('sha256').update(`${process.platform}-${process.arch}\n`);
  for (const file of MODULE_FILES) hash.update(await readFile(join(MODULE_DIR, file)));
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
