import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { onFreePort, spawnLogged, waitUntil } from '@animal-store/test-support';
import { cleanEnv, REPO_ROOT, runOk, writeFile } from './temp.js';

/** tooling/release/verdaccio: Verdaccio's pinned install (package.json and package-lock.json). */
const SOURCE = join(REPO_ROOT, 'tooling/release/verdaccio');

/**
 * Verdaccio installed with `npm ci` from its lockfile into the cache (once per lockfile), outside
 * the workspace: nothing but the npm registry is needed. Returns its entry script.
 */
export async function installVerdaccio(): Promise<string> {
  const lock = readFileSync(join(SOURCE, 'package-lock.json'));
  const hash = createHash('sha256').update(lock).digest('hex').slice(0, 12);
  const cache = process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache');
  const dir = join(cache, 'animal-store', `verdaccio-${hash}`);
  const bin = join(dir, 'node_modules/verdaccio/bin/verdaccio');
  if (!existsSync(bin)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(SOURCE, 'package.json'), join(dir, 'package.json'));
    copyFileSync(join(SOURCE, 'package-lock.json'), join(dir, 'package-lock.json'));
    try {
      await runOk('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], {
        cwd: dir,
        env: cleanEnv(),
      });
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
  }
  return bin;
}

export interface Registry {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  /** A token of a user allowed to publish `@animal-store/*`. */
  readonly token: string;
  /** The registry's document of a package (every version's manifest). */
  packument(name: string): Promise<{ versions: Record<string, Record<string, unknown>> } | null>;
  stop(): Promise<void>;
}

/**
 * Starts Verdaccio on 127.0.0.1 with its storage in `dir`: `@animal-store/*` published by a user
 * it makes, no uplink (it never reaches another registry). Stops by itself after the test file.
 */
export async function startRegistry(dir: string): Promise<Registry> {
  const bin = await installVerdaccio();
  writeFile(
    dir,
    'config.yaml',
    `storage: ${join(dir, 'storage')}
auth:
  htpasswd:
    file: ${join(dir, 'htpasswd')}
    max_users: 10
uplinks: {}
packages:
  '@animal-store/*':
    access: $all
    publish: $authenticated
    unpublish: $authenticated
  '**':
    access: $all
publish:
  allow_offline: true
log: { type: stdout, format: json, level: warn }
`,
  );
  const { verdaccio, url } = await onFreePort(async (port) => {
    const url = `http://127.0.0.1:${port}/`;
    const verdaccio = spawnLogged(
      process.execPath,
      [bin, '--config', join(dir, 'config.yaml'), '--listen', `127.0.0.1:${port}`],
      { env: cleanEnv() },
    );
    await waitUntil(verdaccio, 'Verdaccio', () =>
      fetch(`${url}-/ping`).then(
        (res) => (res.ok ? true : undefined),
        () => undefined,
      ),
    );
    return { verdaccio, url };
  });
  const { output, stop } = verdaccio;
  const user = await fetch(`${url}-/user/org.couchdb.user:rehearsal`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'rehearsal', password: 'rehearsal-password' }),
  });
  const { token } = (await user.json()) as { token?: string };
  if (!user.ok || !token) {
    await stop();
    throw new Error(`Verdaccio made no user (${user.status}):\n${output()}`);
  }
  return {
    url,
    token,
    async packument(name) {
      const res = await fetch(`${url}${name.replace('/', '%2f')}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      if (res.status === 404) return null;
      if (!res.ok) throw new Error(`GET ${name}: ${res.status}`);
      return (await res.json()) as { versions: Record<string, Record<string, unknown>> };
    },
    stop,
  };
}
