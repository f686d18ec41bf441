// What a run costs a server, as the README promises it: how many pets it creates on an empty
// store and on one that already holds enough, how many requests it sends, and what --max-pets
// leaves out. The numbers are read from the README, so a run that outgrows them fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BULK_PETS,
  CHECK_PETS_MAX,
  MAX_CREATED,
  SAMPLE_PETS,
  STORE_TARGET,
} from '../src/fixtures.js';
import { runConformance, UsageError } from '../src/index.js';
import { type GapChoice, startFakeServer } from './support/fake-server.js';
import { notPassed, resultOf, runAgainst, TEST_TIMEOUT_MS } from './support/run-kit.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');

/** The number the README gives in `pattern`'s first group. */
function promised(pattern: RegExp): number {
  const found = pattern.exec(readme)?.[1];
  if (found === undefined) throw new Error(`the README states no ${pattern}`);
  return Number(found.replace(/,/g, ''));
}

const PETS_ON_EMPTY_STORE = promised(
  /\*\*creates at most (\d+) pets\*\* with `createPet` on an empty store/,
);
const PETS_ON_FULL_STORE = promised(/\*\*at most (\d+) on a store that already shows 101 pets\*\*/);
const REQUESTS = promised(/a full run sends at most ([\d,]+) requests/);

/** A conforming server that accepts every valid body the kit may send (the most pets a run makes). */
const ACCEPTS_EVERYTHING: readonly GapChoice[] = [
  'exact-big-category-ids',
  'ignores-unknown-fields',
  'null-status-absent',
  'serves-any-limit',
  'reads-any-media-type',
  'reads-form-bodies',
  'replaces-invalid-utf8',
  'replaces-unpaired-surrogates',
  'takes-large-bodies',
  'path-spellings-same-resource',
];

describe("the README's numbers", () => {
  it('are the kit’s own limits', () => {
    expect(PETS_ON_EMPTY_STORE).toBe(MAX_CREATED);
    expect(MAX_CREATED).toBe(STORE_TARGET + CHECK_PETS_MAX);
    expect(PETS_ON_FULL_STORE).toBe(SAMPLE_PETS + BULK_PETS + CHECK_PETS_MAX);
  });

  it.each([
    ['the reference', []],
    ['a server that accepts every valid body', ACCEPTS_EVERYTHING],
  ] as const)('hold for %s: two runs on one store, the second creating what its checks need', async (_, choices) => {
    const server = await startFakeServer({ choices });
    try {
      const { baseUrl, apiKey } = server;
      const first = await runConformance({ baseUrl, apiKey, timeoutMs: TEST_TIMEOUT_MS });
      const second = await runConformance({ baseUrl, apiKey, timeoutMs: TEST_TIMEOUT_MS });
      for (const [round, report] of [first, second].entries()) {
        expect(report.verdict, `run ${round + 1}: ${notPassed(report).join('\n')}`).toBe('pass');
        expect(report.requests.length, `run ${round + 1}`).toBeLessThanOrEqual(REQUESTS);
        // limit=100 judged exactly on a fresh store too.
        expect(resultOf(report, 'listPets.limit-100').message).toMatch(
          /returned 100 pets of at least/,
        );
      }
      expect(first.created.count).toBeGreaterThanOrEqual(STORE_TARGET);
      expect(first.created.count).toBeLessThanOrEqual(PETS_ON_EMPTY_STORE);
      expect(second.created.count).toBeLessThanOrEqual(PETS_ON_FULL_STORE);
      expect(resultOf(first, 'listPets.large-answer').outcome).toBe('pass');
    } finally {
      await server.close();
    }
  });

  it('hold on a store that held thousands of pets before the run', async () => {
    const { report } = await runAgainst({ choices: ['preloaded-store'] });
    expect(report.created.count).toBeLessThanOrEqual(PETS_ON_FULL_STORE);
    expect(report.requests.length).toBeLessThanOrEqual(REQUESTS);
  });
});

describe('--max-pets', () => {
  it('caps what a run creates, and the limits it leaves unshown are not run, saying why', async () => {
    const maxPets = CHECK_PETS_MAX + 20;
    const { report, server } = await runAgainst({ choices: [...ACCEPTS_EVERYTHING] }, { maxPets });
    expect(server.created()).toBeLessThanOrEqual(maxPets);
    expect(report.inputs.maxPets).toBe(maxPets);
    expect(report.verdict).toBe('incomplete');
    for (const id of ['listPets.limit-100', 'listPets.every-limit']) {
      const result = resultOf(report, id);
      expect(result.outcome, result.message).toBe('skip');
      expect(result.message).toContain(`--max-pets ${maxPets}`);
      expect(report.notRun.map((n) => n.id)).toContain(id);
    }
    expect(report.summary.failed).toBe(0);
  });

  it('refuses a cap below what the checks themselves create', async () => {
    const server = await startFakeServer();
    try {
      const run = runConformance({ baseUrl: server.baseUrl, apiKey: server.apiKey, maxPets: 10 });
      await expect(run).rejects.toThrow(UsageError);
      await expect(run).rejects.toThrow(`--max-pets must be at least ${CHECK_PETS_MAX}`);
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
