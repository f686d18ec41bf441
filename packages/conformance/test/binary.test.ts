// The single executable (scripts/build-sea.mjs), built here as CI and the release build it, and run
// from an otherwise empty folder with a PATH that holds only that folder: no node anywhere.
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Finished, runProcess, TemporaryFolder } from '@animal-store/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS, KIT_VERSION } from '../src/index.js';
import {
  closedBaseUrl,
  type FakeServer,
  type FakeServerOptions,
  startFakeServer,
} from './support/fake-server.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const temp = new TemporaryFolder('conformance-sea-');
/** The folder that holds the binary alone, and the binary: made by `beforeAll`. */
let bare: string;
let binary: string;

function run(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd = bare,
): Promise<Finished> {
  return runProcess(command, args, { env, cwd });
}

/** The executable, with nothing in its environment but a PATH of its own folder. */
const runBinary = (args: readonly string[]) => run(binary, args, { PATH: bare });
/** The npm package's command, run by this Node. */
const runPackage = (args: readonly string[]) =>
  run(process.execPath, [join(root, 'bin', 'animal-store-conformance.js'), ...args], {
    PATH: process.env.PATH,
  });

beforeAll(async () => {
  bare = join(temp.path, 'bare');
  binary = join(bare, 'animal-store-conformance');
  const build = await run(
    process.execPath,
    [join(root, 'scripts', 'build-sea.mjs'), join(temp.path, 'build')],
    process.env,
    root,
  );
  expect(build.exitCode, build.stderr).toBe(0);
  mkdirSync(bare);
  copyFileSync(join(temp.path, 'build', 'animal-store-conformance'), binary);
  // The folder holds the binary alone (copyFileSync keeps its mode).
  expect(readdirSync(bare)).toEqual(['animal-store-conformance']);
});

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => temp.remove());

async function target(options: FakeServerOptions = {}) {
  const server = await startFakeServer(options);
  servers.push(server);
  return ['--base-url', server.baseUrl, '--api-key', server.apiKey];
}

/** `id: outcome` of every check in a JSON report. */
function outcomes(json: string): string[] {
  return JSON.parse(json).results.map(
    (r: { id: string; outcome: string }) => `${r.id}: ${r.outcome}`,
  );
}

describe('the single executable', () => {
  it('writes the SHA-256 of the binary beside it', async () => {
    const { createHash } = await import('node:crypto');
    const sha256 = createHash('sha256').update(readFileSync(binary)).digest('hex');
    expect(readFileSync(join(temp.path, 'build', 'animal-store-conformance.sha256'), 'utf8')).toBe(
      `${sha256}  animal-store-conformance\n`,
    );
  });

  it('prints the same help and version as the npm package, without node on PATH', async () => {
    const printed: string[] = [];
    for (const args of [['--help'], ['--version']]) {
      const [sea, npm] = await Promise.all([runBinary(args), runPackage(args)]);
      expect(sea).toEqual(npm);
      expect(sea.exitCode).toBe(0);
      printed.push(sea.stdout);
    }
    expect(printed[1]).toBe(`${KIT_VERSION}\n`);
  });

  it('exits 2 like the npm package on a usage error and on an unreachable server', async () => {
    const closed = await closedBaseUrl();
    for (const args of [[], ['--base-url', closed, '--api-key', 'k']]) {
      const [sea, npm] = await Promise.all([runBinary(args), runPackage(args)]);
      expect(sea.exitCode).toBe(2);
      expect(sea).toEqual(npm);
    }
  });

  it('passes a conforming server with every check and exit 0, as the npm package does', async () => {
    // Each run gets a fresh server: a run's pets stay and change what the next one can judge.
    const args = ['--reporter', 'json', '--seed', '7'];
    const sea = await runBinary([...(await target()), ...args]);
    const npm = await runPackage([...(await target()), ...args]);
    expect(sea.exitCode, sea.stderr).toBe(0);
    expect(npm.exitCode).toBe(0);
    expect(outcomes(sea.stdout)).toEqual(outcomes(npm.stdout));
    expect(outcomes(sea.stdout)).toHaveLength(CHECKS.length);
    // Like the npm package, the binary links the specification of its release tag.
    expect(JSON.parse(sea.stdout).specification).toBe(
      `https://github.com/animal-store/animal-store/blob/@animal-store/conformance@${KIT_VERSION}/docs/specification.md`,
    );
  });

  it('fails the checks the npm package fails, with exit 1, and writes report files', async () => {
    // Both faults' groups; the conforming server above compares every check.
    const faulty = async () => [
      ...(await target({ faults: ['list-ignores-status-filter', 'get-400-for-absent'] })),
      ...['--only', 'listPets,getPet'],
    ];
    const sea = await runBinary([...(await faulty()), '--reporter', 'json,html:report.html']);
    const npm = await runPackage([...(await faulty()), '--reporter', 'json']);
    expect(sea.exitCode).toBe(1);
    expect(npm.exitCode).toBe(1);
    expect(outcomes(sea.stdout)).toEqual(outcomes(npm.stdout));
    expect(outcomes(sea.stdout)).toContain('getPet.not-found: fail');
    expect(readFileSync(join(bare, 'report.html'), 'utf8')).toContain('getPet.not-found');
  });
});
