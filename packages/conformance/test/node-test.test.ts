// The node:test entry, as an implementer uses it: a test file of their own that calls
// conformanceSuite, run by `node --test`, against a real listening server.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runProcess, TemporaryFolder } from '@animal-store/test-support';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CHECKS } from '../src/index.js';
import {
  closedBaseUrl,
  type FakeServer,
  type FakeServerOptions,
  startFakeServer,
} from './support/fake-server.js';

const entry = pathToFileURL(fileURLToPath(new URL('../dist/node-test.js', import.meta.url))).href;
const temp = new TemporaryFolder('conformance-node-test-');
afterAll(() => temp.remove());

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Writes an implementer's test file calling conformanceSuite with `options` (JS source). */
function testFile(name: string, options: string): string {
  const file = join(temp.path, `${name}.test.mjs`);
  writeFileSync(
    file,
    `import { conformanceSuite } from ${JSON.stringify(entry)};\n` +
      `conformanceSuite(${options});\n`,
  );
  return file;
}

/** Runs `node --test` on `file` with the TAP reporter; gives test points by id. */
async function nodeTest(file: string, server: { baseUrl: string; apiKey: string }) {
  const run = await runProcess(process.execPath, ['--test', '--test-reporter=tap', file], {
    env: { PATH: process.env.PATH, BASE_URL: server.baseUrl, KEY: server.apiKey },
    cwd: temp.path,
  });
  const points = new Map<string, string>();
  for (const match of run.stdout.matchAll(/^ {4}(ok|not ok) \d+ - (\S+)( # SKIP.*)?$/gm)) {
    points.set(match[2] as string, match[3] ? 'skip' : (match[1] as string));
  }
  return { ...run, points };
}

async function target(options: FakeServerOptions = {}) {
  const server = await startFakeServer(options);
  servers.push(server);
  return server;
}

const FROM_ENV = '{ baseUrl: process.env.BASE_URL, apiKey: process.env.KEY';

describe('the node:test entry', () => {
  it('registers every check as a test case, and they pass against a conforming server', async () => {
    const run = await nodeTest(testFile('pass', `${FROM_ENV}, seed: 3 }`), await target());
    expect(run.exitCode, run.stdout).toBe(0);
    expect([...run.points.keys()]).toEqual(CHECKS.map((c) => c.id));
    expect([...run.points.values()].every((p) => p === 'ok')).toBe(true);
    expect(run.stdout).toMatch(/^# Subtest: Animal Store conformance$/m);
  });

  it('fails the test cases of failed checks, with the kit’s message, and the run', async () => {
    const server = await target({ faults: ['get-400-for-absent'] });
    const run = await nodeTest(testFile('fail', `${FROM_ENV}, only: ['getPet'] }`), server);
    expect(run.exitCode).toBe(1);
    expect(run.points.get('getPet.not-found')).toBe('not ok');
    expect([...run.points.keys()]).toEqual(
      CHECKS.filter((c) => c.group === 'getPet').map((c) => c.id),
    );
    expect(run.stdout).toContain('answered 400, expected 404');
    expect(run.stdout).toContain('replay: curl');
  });

  it('takes the CLI’s options: read-only skips the checks that create, --skip leaves out', async () => {
    const server = await target();
    const file = testFile(
      'read-only',
      `${FROM_ENV}, readOnly: true, skip: ['errors'] }, { name: 'my server' }`,
    );
    const run = await nodeTest(file, server);
    expect(run.exitCode, run.stdout).toBe(0);
    expect(server.requests.filter((r) => r.method === 'POST')).toEqual([]);
    expect(run.stdout).toMatch(/^# Subtest: my server$/m);
    const writing = CHECKS.filter((c) => c.writes && c.group !== 'errors').map((c) => c.id);
    for (const id of writing) expect(run.points.get(id), id).toBe('skip');
    expect(CHECKS.some((c) => c.group === 'errors' && run.points.has(c.id))).toBe(false);
  });

  it('takes the options from a function called when the first check runs', async () => {
    const server = await target();
    const file = testFile('lazy', `() => (${FROM_ENV} }), { only: ['auth'] }`);
    const run = await nodeTest(file, server);
    expect(run.exitCode, run.stdout).toBe(0);
    expect([...run.points.keys()]).toEqual(
      CHECKS.filter((c) => c.group === 'auth').map((c) => c.id),
    );
  });

  it('fails every test case with the reason when the server cannot be reached', async () => {
    const baseUrl = await closedBaseUrl();
    const file = testFile('down', `${FROM_ENV}, only: ['auth'] }`);
    const run = await nodeTest(file, { baseUrl, apiKey: 'k' });
    expect(run.exitCode).toBe(1);
    expect(run.points.size).toBe(CHECKS.filter((c) => c.group === 'auth').length);
    expect([...run.points.values()].every((p) => p === 'not ok')).toBe(true);
    expect(run.stdout).toContain(`cannot reach ${baseUrl}`);
  });
});
