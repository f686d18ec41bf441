/**
 * The release flow of RELEASING.md rehearsed against a real registry: Verdaccio on 127.0.0.1
 * stands in for npm. From a scratch clone of this commit: `pnpm version-packages`, the version
 * commit, `pnpm release:publish` to the local registry (twice: the second publishes nothing);
 * then the three packages installed from that registry with npm into an empty project and used
 * against the API, and the kit's single executable built and checked as the release workflow
 * does. The tarballs published are the ones the packed-package tests install (packed once:
 * support/packed-packages.ts). Only committed work is rehearsed (a clone holds no uncommitted
 * change).
 */
import {
  chmodSync,
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { dirname, join, posix } from 'node:path';
import { selfSignedCertificate } from '@animal-store/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedApi, startApi } from './support/api.js';
import { describePackedPackages, type Released } from './support/packed-packages.js';
import {
  cleanEnv,
  REPO_ROOT,
  type RunResult,
  run,
  runOk,
  tempDir,
  writeFile,
} from './support/temp.js';
import { type Registry, startRegistry } from './support/verdaccio.js';

const PUBLIC = ['@animal-store/contract', '@animal-store/client', '@animal-store/conformance'];
const DIRS: Record<string, string> = {
  '@animal-store/contract': 'packages/contract',
  '@animal-store/client': 'packages/client',
  '@animal-store/conformance': 'packages/conformance',
};
const API_KEY = 'rehearsal-key';
const ASSET = 'animal-store-conformance-linux-x64';

interface Manifest {
  name: string;
  version: string;
  files: string[];
  dependencies?: Record<string, string>;
}

describe('a release rehearsed against a local registry (Verdaccio), from a scratch clone', () => {
  const work = tempDir('rehearsal');
  const clone = join(work, 'clone');
  const consumer = join(work, 'consumer');
  const stops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await Promise.all(stops.map((stop) => stop()));
  });
  let registry: Registry;
  /** The clone's environment: the registry for `@animal-store/*` (RELEASING.md, "Publish"). */
  let env: NodeJS.ProcessEnv;
  const git = (args: string[]) => runOk('git', args, { cwd: clone, env });
  const pnpm = (args: string[]) => run('pnpm', args, { cwd: clone, env });
  const manifest = (name: string) =>
    JSON.parse(readFileSync(join(clone, DIRS[name] as string, 'package.json'), 'utf8')) as Manifest;
  let published: { status: number | null; output: string };
  let tagsBefore: string[];
  let consumerInstalling: Promise<void> | undefined;
  /** The registry's packages installed with npm into an empty project (once). */
  const consumerInstall = () => {
    consumerInstalling ??= (async () => {
      writeFile(
        consumer,
        'package.json',
        '{ "name": "consumer", "private": true, "type": "module" }\n',
      );
      // A project that gets @animal-store from its own registry and everything else from npm.
      writeFile(consumer, '.npmrc', `@animal-store:registry=${registry.url}\n`);
      await runOk('npm', ['install', '--no-audit', '--no-fund', ...PUBLIC], {
        cwd: consumer,
        env: cleanEnv({ npm_config_yes: 'false' }),
      });
    })();
    return consumerInstalling;
  };
  let seaBuilding: Promise<RunResult> | undefined;
  /** The kit's single executable built in the clone as the release workflow builds it (once). */
  const buildSea = () => {
    seaBuilding ??= pnpm(['--filter', '@animal-store/conformance', 'build:sea']);
    return seaBuilding;
  };
  let apiStarting: Promise<StartedApi> | undefined;
  /**
   * The API every kit run and the client use, from its build (started once): a kit run creates
   * at most 30 pets and the API offers next pages, so a run after another on its store judges
   * every check as on an empty one.
   */
  const api = {
    apiKey: API_KEY,
    get() {
      apiStarting ??= startApi(API_KEY).then((started) => {
        stops.push(started.stop);
        return started;
      });
      return apiStarting;
    },
  };
  /** Each public package's tarball as the registry serves it, by name. */
  const tarballs: Record<string, string> = {};

  beforeAll(async () => {
    // Verdaccio starts beside the clone and its install, which need no registry (every
    // @animal-store package there is the workspace's own).
    const registryStarting = startRegistry(join(work, 'registry'));
    registryStarting.then((started) => stops.push(started.stop)).catch(() => {});
    env = cleanEnv({
      GIT_AUTHOR_NAME: 'Rehearsal',
      GIT_AUTHOR_EMAIL: 'rehearsal@example.invalid',
      GIT_COMMITTER_NAME: 'Rehearsal',
      GIT_COMMITTER_EMAIL: 'rehearsal@example.invalid',
    });
    await runOk('git', ['clone', '--quiet', REPO_ROOT, clone], { cwd: work, env });
    // The local registry starts empty, so every version is published here for the first time:
    // the clone drops the tags of releases already made, as changeset publish tags only what it
    // publishes.
    const released = (await git(['tag', '--list', '@animal-store/*'])).split('\n').filter(Boolean);
    if (released.length > 0) await git(['tag', '--delete', ...released]);
    tagsBefore = (await git(['tag', '--list'])).split('\n').filter(Boolean);
    const install = await pnpm(['install', '--frozen-lockfile', '--prefer-offline']);
    expect(install.status, install.stdout + install.stderr).toBe(0);
    registry = await registryStarting;
    env = { ...env, 'npm_config_@animal-store:registry': registry.url };
    // The publisher's credentials, as a release manager's .npmrc holds npm's.
    writeFile(
      clone,
      '.npmrc',
      `@animal-store:registry=${registry.url}\n//${registry.url.slice('http://'.length)}:_authToken=${registry.token}\n`,
    );
    const version = await pnpm(['version-packages']);
    expect(version.status, version.stdout + version.stderr).toBe(0);
    await git(['add', '--all', '--', '.', ':!.npmrc']);
    const staged = await run('git', ['diff', '--cached', '--quiet'], { cwd: clone, env });
    if (staged.status !== 0) await git(['commit', '--quiet', '-m', 'Version Packages']);
    const first = await pnpm(['release:publish']);
    published = { status: first.status, output: first.stdout + first.stderr };
    expect(published.status, published.output).toBe(0);
    // The tarballs the registry now holds, downloaded once for every test that reads them.
    for (const name of PUBLIC) {
      const { version } = manifest(name);
      const dist = (await registry.packument(name))?.versions[version]?.dist as { tarball: string };
      const res = await fetch(dist.tarball, {
        headers: { authorization: `Bearer ${registry.token}` },
      });
      expect(res.ok, name).toBe(true);
      const file = `tarballs/${name.slice(1).replace('/', '-')}-${version}.tgz`;
      writeFile(work, file, '');
      writeFileSync(join(work, file), Buffer.from(await res.arrayBuffer()));
      tarballs[name] = join(work, file);
    }
    // The two consumer projects' npm installs wait mostly on the network: both start now, side
    // by side, and the kit's executable builds beside them (from the version commit, which is
    // all it reads); each test below waits for its own (and sees its failure).
    packedSuite.install().catch(() => {});
    consumerInstall().catch(() => {});
    buildSea().catch(() => {});
    api.get().catch(() => {});
  }, 30 * 60_000);

  it('versions the packages: no changeset left, the mentions of versions follow', async () => {
    const pending = readdirSync(join(clone, '.changeset')).filter(
      (file) => file.endsWith('.md') && file !== 'README.md',
    );
    expect(pending).toEqual([]);
    const check = await pnpm(['version-mentions']);
    expect(check.status, check.stdout).toBe(0);
  });

  it('publishes every public package at its version, with real ranges for workspace ones', async () => {
    for (const name of PUBLIC) {
      const { version } = manifest(name);
      const document = await registry.packument(name);
      expect(Object.keys(document?.versions ?? {}), name).toEqual([version]);
      const published = document?.versions[version] as unknown as Manifest;
      expect(JSON.stringify(published), name).not.toContain('workspace:');
      for (const [dependency, range] of Object.entries(published.dependencies ?? {})) {
        if (DIRS[dependency]) expect(range, dependency).toBe(`^${manifest(dependency).version}`);
      }
    }
  });

  it('tags each published version as RELEASING.md names it: @animal-store/<name>@<version>', async () => {
    const tags = (await git(['tag', '--list'])).split('\n').filter(Boolean);
    const added = tags.filter((tag) => !tagsBefore.includes(tag));
    expect(added.sort()).toEqual(PUBLIC.map((name) => `${name}@${manifest(name).version}`).sort());
    const head = (await git(['rev-parse', 'HEAD'])).trim();
    for (const tag of added) expect((await git(['rev-list', '-n', '1', tag])).trim()).toBe(head);
  });

  it('publishes nothing the second time: a rerun after a failure is safe', async () => {
    const again = await pnpm(['release:publish']);
    expect(again.status, again.stdout + again.stderr).toBe(0);
    expect(again.stdout + again.stderr).toMatch(/No unpublished projects to publish/);
    for (const name of PUBLIC) {
      expect(Object.keys((await registry.packument(name))?.versions ?? {})).toEqual([
        manifest(name).version,
      ]);
    }
  });

  it('puts in each tarball what `files` lists and nothing else; source maps stay inside', async () => {
    for (const name of PUBLIC) {
      const { files } = manifest(name);
      const tarball = tarballs[name] as string;
      const entries = (await runOk('tar', ['-tzf', tarball], { cwd: work }))
        .split('\n')
        .filter((entry) => entry && !entry.endsWith('/'))
        .map((entry) => entry.replace(/^package\//, ''));
      const always = /^(package\.json|README(\.md)?|LICENSE|CHANGELOG\.md)$/i;
      const listed = (entry: string) =>
        always.test(entry) || files.some((f) => entry === f || entry.startsWith(`${f}/`));
      expect(
        entries.filter((entry) => !listed(entry)),
        name,
      ).toEqual([]);
      expect(
        entries.filter((entry) =>
          /(^|\/)(test|tests|__tests__)\/|\.test\.|tsconfig|\.tsbuildinfo$/.test(entry),
        ),
        name,
      ).toEqual([]);
      const unpacked = join(work, 'unpacked', name.replace('/', '-'));
      writeFile(unpacked, '.keep', '');
      await runOk('tar', ['-xzf', tarball, '-C', unpacked], { cwd: work });
      for (const map of entries.filter((entry) => entry.endsWith('.map'))) {
        const { sources, sourceRoot } = JSON.parse(
          readFileSync(join(unpacked, 'package', map), 'utf8'),
        ) as { sources: string[]; sourceRoot?: string };
        for (const source of sources) {
          const target = posix.normalize(posix.join(posix.dirname(map), sourceRoot ?? '', source));
          expect(target.startsWith('..'), `${name}: ${map} -> ${source}`).toBe(false);
          expect(entries, `${name}: ${map} -> ${source}`).toContain(target);
        }
      }
    }
  });

  const packedSuite = describePackedPackages(
    join(work, 'packed'),
    (): Released => {
      const byKey = (key: 'contract' | 'conformance' | 'client') => `@animal-store/${key}`;
      const keys = ['contract', 'conformance', 'client'] as const;
      return {
        dirs: Object.fromEntries(
          keys.map((k) => [k, join(clone, DIRS[byKey(k)] as string)]),
        ) as Released['dirs'],
        tarballs: Object.fromEntries(
          keys.map((k) => [k, tarballs[byKey(k)] as string]),
        ) as Released['tarballs'],
      };
    },
    api,
  );

  describe('installed from the registry with npm into an empty project', () => {
    beforeAll(consumerInstall, 10 * 60_000);

    it('installs the tarballs the local registry holds, at the published versions', async () => {
      const lock = JSON.parse(readFileSync(join(consumer, 'package-lock.json'), 'utf8')) as {
        packages: Record<string, { integrity?: string; version?: string }>;
      };
      for (const name of PUBLIC) {
        const { version } = manifest(name);
        const entry = lock.packages[`node_modules/${name}`];
        expect(entry?.version, name).toBe(version);
        const dist = (await registry.packument(name))?.versions[version]?.dist as {
          integrity: string;
        };
        expect(entry?.integrity, name).toBe(dist.integrity);
      }
    });

    it("passes the kit's command and the client against the API", async () => {
      const { url } = await api.get();
      const kit = await run(
        'npx',
        ['animal-store-conformance', '--base-url', url, '--api-key', API_KEY],
        {
          cwd: consumer,
          env: cleanEnv({ npm_config_yes: 'false' }),
        },
      );
      expect({ status: kit.status, stderr: kit.status === 0 ? '' : kit.stderr }).toEqual({
        status: 0,
        stderr: '',
      });
      expect(kit.stdout).toMatch(/^PASS: every must check/m);
      writeFile(
        consumer,
        'client.mjs',
        `import { AnimalStoreClient } from '@animal-store/client';
const client = new AnimalStoreClient({ baseUrl: process.argv[2], apiKey: process.argv[3] });
const { pet } = await client.pets.create({ name: 'Rehearsal', categoryId: 1 }, { idempotencyKey: true });
const { pet: again } = await client.pets.get(pet.id);
console.log(JSON.stringify({ name: again.name, same: again.id === pet.id }));
`,
      );
      const client = await runOk(process.execPath, ['client.mjs', url, API_KEY], {
        cwd: consumer,
      });
      expect(JSON.parse(client)).toEqual({ name: 'Rehearsal', same: true });
    });
  });

  it("builds the kit's single executable as the release workflow does: its SHA-256 checks, it runs from an empty folder", async () => {
    const build = await buildSea();
    expect(build.status, build.stdout + build.stderr).toBe(0);
    const sea = join(clone, 'packages/conformance/sea');
    copyFileSync(join(sea, 'animal-store-conformance'), join(sea, ASSET));
    writeFile(sea, `${ASSET}.sha256`, await runOk('sha256sum', [ASSET], { cwd: sea, env }));
    // The user's side: the two assets downloaded into an empty folder.
    const empty = join(work, 'download');
    writeFile(empty, '.keep', '');
    for (const file of [ASSET, `${ASSET}.sha256`]) copyFileSync(join(sea, file), join(empty, file));
    expect(await runOk('sha256sum', ['-c', `${ASSET}.sha256`], { cwd: empty, env })).toBe(
      `${ASSET}: OK\n`,
    );
    chmodSync(join(empty, ASSET), 0o755);
    const bare = { PATH: empty };
    const version = await run(join(empty, ASSET), ['--version'], { cwd: empty, env: bare });
    expect(version).toMatchObject({
      status: 0,
      stdout: `${manifest('@animal-store/conformance').version}\n`,
    });
    const { url } = await api.get();
    const kit = await run(join(empty, ASSET), ['--base-url', url, '--api-key', API_KEY], {
      cwd: empty,
      env: bare,
    });
    expect(kit.status, kit.stderr).toBe(0);
    expect(kit.stdout).toMatch(/^PASS: every must check/m);
    expect(existsSync(join(dirname(sea), 'sea', ASSET))).toBe(true);
  });

  it('builds a single executable that trusts over HTTPS the CA NODE_EXTRA_CA_CERTS names', async () => {
    const build = await buildSea();
    expect(build.status, build.stdout + build.stderr).toBe(0);
    const sea = join(clone, 'packages/conformance/sea/animal-store-conformance');
    const certificate = await selfSignedCertificate(work, 'server');
    // A server over HTTPS that speaks no operation of the spec: once the TLS handshake succeeds,
    // the kit says so.
    const server = createServer(certificate, (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('nothing here');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    stops.push(() => new Promise((resolve) => server.close(() => resolve())));
    const baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const args = ['--base-url', baseUrl, '--api-key', API_KEY];

    const untrusted = await run(sea, args, { cwd: work, env: { PATH: '/usr/bin:/bin' } });
    expect(untrusted.status).toBe(2);
    expect(untrusted.stderr).toMatch(
      /cannot reach \S+: self-signed certificate.*NODE_EXTRA_CA_CERTS/,
    );
    const trusted = await run(sea, args, {
      cwd: work,
      env: { PATH: '/usr/bin:/bin', NODE_EXTRA_CA_CERTS: certificate.certPath },
    });
    expect(trusted.status).toBe(2);
    expect(trusted.stderr).toContain(`no operation of the spec answers at ${baseUrl}`);
  });
});
