import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AnimalStoreClient } from '../src/index.js';
import { retryDelay } from '../src/retry.js';
import { answer, errorJson, scriptedServer } from './support/scripted-server.js';

const rex = { id: 1, name: 'Rex', categoryId: 1, status: 'available' as const };
const options = { attempts: 6, maxDelayMs: 60_000, backoffMs: 500 };
const LOWEST = () => 0;
const HIGHEST = () => 1 - Number.EPSILON;

describe('the wait before a retry', () => {
  it.each([
    1, 2, 3, 4, 5,
  ])('is between half of and all of backoffMs × 2^(n−1) before retry %i', (n) => {
    const base = 500 * 2 ** (n - 1);
    expect(retryDelay(n, options, undefined, LOWEST)).toBe(base / 2);
    expect(retryDelay(n, options, undefined, HIGHEST)).toBe(base);
  });

  it('is Retry-After plus up to half of the backoff when the answer says how long', () => {
    expect(retryDelay(2, options, 7000, LOWEST)).toBe(7000);
    expect(retryDelay(2, options, 7000, HIGHEST)).toBe(7500);
  });

  it('never grows past maxDelayMs', () => {
    expect(retryDelay(20, { ...options, maxDelayMs: 4000 }, undefined, HIGHEST)).toBe(4000);
  });

  it('differs between two clients failed by the same outage, each within the bounds', async () => {
    const server = await scriptedServer((_n, _req, res) =>
      answer(res, 503, errorJson(503, 'service_unavailable')),
    );
    const run = async () => {
      const waits: number[] = [];
      const client = new AnimalStoreClient({
        baseUrl: `${server.origin}/v1`,
        apiKey: 'k',
        retry: { attempts: 5 },
        sleep: async (ms) => {
          waits.push(ms);
        },
      });
      await expect(client.pets.get(1)).rejects.toMatchObject({ status: 503 });
      return waits;
    };
    const [first, second] = [await run(), await run()];
    expect(first).not.toEqual(second);
    for (const waits of [first, second]) {
      expect(waits).toHaveLength(4);
      waits.forEach((ms, i) => {
        const base = 500 * 2 ** i;
        expect(ms).toBeGreaterThanOrEqual(base / 2);
        expect(ms).toBeLessThanOrEqual(base);
      });
    }
  });
});

type Kind = 'list' | 'get' | 'keyed create' | 'create';
const KINDS: Kind[] = ['list', 'get', 'keyed create', 'create'];

/** The README's retry table: for each status (or failure) column, the calls it is retried for. */
function readmeTable(): Map<string, Set<Kind>> {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Retries'));
  const rows = section
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  const [header, , ...body] = rows;
  const table = new Map<string, Set<Kind>>();
  for (const row of body) {
    const kind = KINDS.find((k) => row[0]?.replaceAll('`', '') === k);
    if (!kind) continue;
    header?.slice(1).forEach((column, i) => {
      if (!table.has(column)) table.set(column, new Set());
      if (row[i + 1]?.startsWith('yes')) table.get(column)?.add(kind);
    });
  }
  return table;
}

/** Whether a call of `kind` is sent again after a first answer with `status`. */
async function retried(kind: Kind, status: number): Promise<boolean> {
  const server = await scriptedServer((n, _req, res) => {
    if (n === 0) return answer(res, status, errorJson(status, 'some_code'));
    answer(res, kind.endsWith('create') ? 201 : 200, kind === 'list' ? [rex] : rex);
  });
  const client = new AnimalStoreClient({
    baseUrl: `${server.origin}/v1`,
    apiKey: 'k',
    sleep: async () => {},
  });
  const call = {
    list: () => client.pets.listPage(),
    get: () => client.pets.get(1),
    'keyed create': () => client.pets.create(rex, { idempotencyKey: true }),
    create: () => client.pets.create(rex),
  }[kind];
  await call().catch(() => {});
  return server.received.length > 1;
}

describe('the README’s retry table', () => {
  const table = readmeTable();
  const statuses = [...table.keys()].filter((column) => /^`\d{3}`$/.test(column));

  it('has a column for each status the client retries for some call', () => {
    expect(statuses).toEqual(['`409`', '`429`', '`502`', '`503`', '`504`']);
  });

  it.each(
    statuses.flatMap((column) => KINDS.map((kind) => [column, kind] as const)),
  )('says truly whether %s is retried for %s', async (column, kind) => {
    const status = Number(column.replaceAll('`', ''));
    expect(await retried(kind, status)).toBe(table.get(column)?.has(kind) ?? false);
  });

  it.each(KINDS)('retries no other status, such as 500 or 400, for %s', async (kind) => {
    expect(await retried(kind, 500)).toBe(false);
    expect(await retried(kind, 400)).toBe(false);
  });
});
