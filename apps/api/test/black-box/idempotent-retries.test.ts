import { afterAll, describe, expect, it } from 'vitest';
import type { StoredPet } from '../../src/store/pet-store.js';
import { json, type PetBody, startTestApi } from '../helpers/api.js';
import { readPage, testStoreKind } from '../helpers/store.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';

// Clients retry creates through a proxy that loses 30% of the responses after the API has
// handled the request: with an Idempotency-Key nothing is created twice, without one it is.
const CREATES = 120;
const CLIENTS = 8;
const DROP_RATE = 0.3;
const MAX_ATTEMPTS = 40;

/** A small seeded PRNG (mulberry32): the same drop pattern rate on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const api = await startTestApi();
const random = seeded(20_260_601);
const proxy = await startTcpProxy(
  { host: '127.0.0.1', port: Number(new URL(api.origin).port) },
  { dropResponse: () => random() < DROP_RATE },
);
afterAll(() => proxy.close());
const base = `http://127.0.0.1:${proxy.port}/v1`;

class UnexpectedAnswer extends Error {}

interface Outcome {
  name: string;
  pet: PetBody;
  replayed: boolean;
}

/** One logical create: retried (same key, same bytes) until a 201 gets through. */
async function createUntilAcknowledged(name: string, key?: string): Promise<Outcome> {
  const body = JSON.stringify({ name, categoryId: 1 });
  const headers = key === undefined ? json : { ...json, 'Idempotency-Key': key };
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    try {
      const res = await fetch(`${base}/pets`, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(10_000),
      });
      const text = await res.text(); // a cut connection fails here or in fetch
      if (res.status === 201) {
        const replayed = res.headers.get('idempotency-replayed') === 'true';
        return { name, pet: JSON.parse(text) as PetBody, replayed };
      }
      if (res.status !== 409) throw new UnexpectedAnswer(`${res.status} ${text}`);
    } catch (error) {
      if (error instanceof UnexpectedAnswer) throw error;
    }
    await new Promise((r) => setTimeout(r, 5 * attempt));
  }
  throw new Error(`${name}: no 201 after ${MAX_ATTEMPTS} attempts`);
}

/** Runs `CREATES` logical creates on `CLIENTS` concurrent clients. */
async function load(prefix: string, withKey: boolean): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let next = 0;
  const client = async () => {
    for (let i = next++; i < CREATES; i = next++) {
      const name = `${prefix}-${i}`;
      outcomes.push(
        await createUntilAcknowledged(name, withKey ? `${prefix}-key-${i}` : undefined),
      );
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  return outcomes;
}

/** Every pet in the store, by name. */
async function petsByName(): Promise<Map<string, StoredPet[]>> {
  const byName = new Map<string, StoredPet[]>();
  let after: number | undefined;
  for (;;) {
    const page = await readPage(api.store, { limit: 100, after });
    for (const pet of page.pets) byName.set(pet.name, [...(byName.get(pet.name) ?? []), pet]);
    after = page.pets.at(-1)?.id;
    if (!page.hasMore) return byName;
  }
}

describe(`creates retried through lost responses (${testStoreKind} store)`, () => {
  it('with an Idempotency-Key: exactly one pet per create, every acknowledged id stored', async () => {
    const dropsBefore = proxy.dropped;
    const outcomes = await load('with-key', true);
    const drops = proxy.dropped - dropsBefore;

    const stored = await petsByName();
    const counts = outcomes.map((o) => stored.get(o.name)?.length ?? 0);
    expect(counts.filter((n) => n !== 1)).toEqual([]);
    for (const { name, pet } of outcomes) {
      expect(stored.get(name)?.[0], name).toEqual(pet);
    }
    // The proof the test exercised something: responses were lost and retries replayed.
    expect(drops).toBeGreaterThan(CREATES * DROP_RATE * 0.5);
    expect(outcomes.filter((o) => o.replayed).length).toBeGreaterThan(0);
  });

  it('without a key: every lost response becomes a duplicate pet', async () => {
    const dropsBefore = proxy.dropped;
    const outcomes = await load('no-key', false);
    const drops = proxy.dropped - dropsBefore;

    const stored = await petsByName();
    const duplicates = outcomes.reduce((n, o) => n + (stored.get(o.name)?.length ?? 0) - 1, 0);
    expect(drops).toBeGreaterThan(0);
    expect(duplicates).toBe(drops);
    for (const { name, pet } of outcomes) expect(stored.get(name)).toContainEqual(pet);
  });
});
