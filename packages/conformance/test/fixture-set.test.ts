import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIMIT_MAX, PET_STATUSES, validateNewPet } from '@animal-store/contract';
import { TemporaryFolder } from '@animal-store/test-support';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../src/index.js';
import { type FakeServer, type FakeServerOptions, startFakeServer } from './support/fake-server.js';
import { runCli } from './support/run-cli.js';

const temp = new TemporaryFolder('conformance-fixtures-');
afterAll(() => temp.remove());
const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const FIXTURE_CHECKS = [
  'listPets.fixtures.status-filter',
  'listPets.fixtures.limits',
  'listPets.fixtures.status-with-limit',
  'getPet.fixtures.by-id',
];

/** The set `fixtures` prints, in a file. */
async function printedSet(): Promise<{ file: string; pets: Record<string, unknown>[] }> {
  const { stdout, exitCode } = await runCli(['fixtures']);
  expect(exitCode).toBe(0);
  const file = join(temp.path, 'set.json');
  writeFileSync(file, stdout);
  return { file, pets: JSON.parse(stdout) };
}

/** A server with the set loaded through createPet, as an operator would load it. */
async function loaded(options: FakeServerOptions, pets: readonly unknown[]): Promise<FakeServer> {
  const server = await startFakeServer(options);
  servers.push(server);
  for (const pet of pets) {
    const res = await fetch(`${server.baseUrl}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(pet),
    });
    expect(res.status).toBe(201);
  }
  return server;
}

/** A read-only run with the set: the report, and how many POSTs the run itself sent. */
async function readOnlyRun(server: FakeServer, file: string) {
  const before = server.requests.filter((r) => r.method === 'POST').length;
  const args = ['--base-url', server.baseUrl, '--api-key', server.apiKey];
  const { stdout, exitCode } = await runCli([
    ...args,
    '--read-only',
    '--fixtures',
    file,
    '--reporter',
    'json',
  ]);
  const report = JSON.parse(stdout) as ConformanceReport;
  const outcome = (id: string) => report.results.find((r) => r.id === id)?.outcome;
  const posts = server.requests.filter((r) => r.method === 'POST').length - before;
  return { report, exitCode, outcome, posts };
}

/**
 * A read-only run with the set on a server loaded with it, with the server's options. Each test
 * runs its own: a run kept between tests outlives a StrykerJS mutant, which switches in one module
 * graph.
 */
async function runWithSet(options: FakeServerOptions): ReturnType<typeof readOnlyRun> {
  const { file, pets } = await printedSet();
  return readOnlyRun(await loaded(options, pets), file);
}

describe('the fixtures command and --read-only --fixtures', () => {
  it('prints more than 100 valid NewPets with distinct known names and every status', async () => {
    const { pets } = await printedSet();
    expect(pets.length).toBeGreaterThan(LIMIT_MAX);
    for (const pet of pets) expect(validateNewPet(pet).ok).toBe(true);
    expect(new Set(pets.map((p) => p.name)).size).toBe(pets.length);
    expect(new Set(pets.map((p) => p.status))).toEqual(new Set(PET_STATUSES));
    expect(pets[0]).toEqual({ name: 'fixtureaaa', categoryId: 1, status: PET_STATUSES[0] });
    const other = JSON.parse((await runCli(['fixtures', '--category-id', '42'])).stdout);
    expect(other.every((p: { categoryId: number }) => p.categoryId === 42)).toBe(true);
  });

  it('judges listing, limits, filters and getPet on the loaded set without creating anything', async () => {
    const { file, pets } = await printedSet();
    const run = await readOnlyRun(await loaded({}, pets), file);
    expect(run.posts).toBe(0);
    expect(run.exitCode).toBe(0);
    for (const id of FIXTURE_CHECKS) expect(run.outcome(id), id).toBe('pass');
    expect(run.report.results.filter((r) => r.outcome === 'fail')).toEqual([]);
  });

  it.each([
    ['list-ignores-status-filter', 'listPets.fixtures.status-filter'],
    ['list-ignores-limit', 'listPets.fixtures.limits'],
    ['list-ignores-limit-with-status', 'listPets.fixtures.status-with-limit'],
    ['get-returns-other-pet', 'getPet.fixtures.by-id'],
    ['list-drops-newest-match', 'listPets.fixtures.status-filter'],
  ] as const)('fails a read-only run on a server with %s (%s)', async (fault, id) => {
    const { file, pets } = await printedSet();
    const run = await readOnlyRun(await loaded({ faults: [fault] }, pets), file);
    expect(run.posts).toBe(0);
    expect(run.exitCode).toBe(1);
    expect(run.outcome(id)).toBe('fail');
  });

  it('judges every limit a set outnumbers, whatever the first showed', async () => {
    const { file, pets } = await printedSet();
    const run = await readOnlyRun(await loaded({ faults: ['list-ignores-limit'] }, pets), file);
    const result = run.report.results.find((r) => r.id === 'listPets.fixtures.limits');
    expect(result?.outcome).toBe('fail');
    // limit=1 first; then 7 and 100 (and the default, which a set of fewer pets than 20 skips).
    expect(result?.message).toMatch(/^GET \/pets\?limit=1 returned \d+ pets, expected 1/);
    expect(result?.message).toMatch(/ \(and [23] more\)$/m);
  });

  it('raises no alarm on conforming servers that choose otherwise, or hold other pets', async () => {
    const choices = ['omits-status', 'preloaded-store', 'others-pets-descending', 'huge-ids'];
    for (const choice of choices) {
      const run = await runWithSet({ choices: [choice as never] });
      const failed = run.report.results.filter((r) => r.outcome === 'fail');
      expect(
        failed.map((r) => `${r.id}: ${r.message}`),
        choice,
      ).toEqual([]);
    }
  });

  it('finds the set past thousands of older pets by following a next-page Link', async () => {
    const run = await runWithSet({ choices: ['preloaded-store'] });
    for (const id of FIXTURE_CHECKS) expect(run.outcome(id), id).toBe('pass');
  });

  it('ends INCOMPLETE (exit 3), not PASS, when the set lies beyond every page it can reach', async () => {
    const { file, pets } = await printedSet();
    const server = await loaded({ choices: ['preloaded-store', 'no-next-link'] }, pets);
    const run = await readOnlyRun(server, file);
    for (const id of FIXTURE_CHECKS) expect(run.outcome(id), id).toBe('skip');
    expect(run.report.verdict).toBe('incomplete');
    expect(run.report.notRun.map((n) => n.id)).toEqual(expect.arrayContaining(FIXTURE_CHECKS));
    expect(run.exitCode).toBe(3);
  });

  it.each([
    ['reads on through next links', {}, '250 of 250 (full page)'],
    [
      'judges no pet missing from a full page without one',
      { choices: ['no-next-link'] },
      '100 of 250 (full page)',
    ],
  ] as const)('with more of a status than a page holds, %s', async (_, options, shown) => {
    // 250 pets of one status: three pages at limit=100; a full page may leave out any of them.
    const pets = Array.from({ length: 250 }, (_, i) => ({
      name: `fullpage${String.fromCharCode(97 + Math.floor(i / 26))}${String.fromCharCode(97 + (i % 26))}`,
      categoryId: 1,
      status: 'available',
    }));
    const file = join(temp.path, 'one-status.json');
    writeFileSync(file, JSON.stringify(pets));
    const run = await readOnlyRun(await loaded(options as FakeServerOptions, pets), file);
    const result = run.report.results.find((r) => r.id === 'listPets.fixtures.status-filter');
    expect(result?.outcome, result?.message).toBe('pass');
    expect(result?.message).toContain(`available: ${shown}, pending: 0 of 0, sold: 0 of 0`);
  });

  it('judges only the limits a small set outnumbers', async () => {
    const pets = ['smallaa', 'smallab', 'smallac', 'smallad', 'smallae'].map((name) => ({
      name,
      categoryId: 1,
      status: 'sold',
    }));
    const file = join(temp.path, 'small.json');
    writeFileSync(file, JSON.stringify(pets));
    const run = await readOnlyRun(await loaded({}, pets), file);
    const result = run.report.results.find((r) => r.id === 'listPets.fixtures.limits');
    expect(result?.outcome, result?.message).toBe('pass');
    expect(result?.message).toMatch(/^limit 1: 1$/m);
  });

  it('skips the set’s checks, never fails them, when the set is not loaded', async () => {
    const { file } = await printedSet();
    const run = await readOnlyRun(await loaded({}, []), file);
    for (const id of FIXTURE_CHECKS) expect(run.outcome(id), id).toBe('skip');
  });

  it.each([
    ['{}', /expected a JSON array of pets/],
    ['[{"name":"a"}]', /pet 0 needs a string name and an integer categoryId/],
    ['[{"name":"a","categoryId":1},{"name":"a","categoryId":1}]', /two pets are named a/],
    ['[{"name":"a","categoryId":1,"status":"lost"}]', /pet 0 has status "lost"/],
  ])('refuses the pet set %s with exit status 2', async (text, message) => {
    const file = join(temp.path, 'bad.json');
    writeFileSync(file, text);
    const { stderr, exitCode } = await runCli([
      ...['--base-url', 'http://127.0.0.1:9/v1', '--api-key', 'k'],
      ...['--fixtures', file],
    ]);
    expect(exitCode).toBe(2);
    expect(stderr).toMatch(message);
  });
});
