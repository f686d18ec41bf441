import { IDEMPOTENCY_KEY_TTL_MS } from '@animal-store/contract';
import { describe, expect, it } from 'vitest';
import { MemoryPetStore } from '../src/store/memory-pet-store.js';
import type { PetDraft } from '../src/store/pet-store.js';
import { readPage } from './helpers/store.js';
import { petStoreSuite } from './store/pet-store-suite.js';

petStoreSuite('MemoryPetStore', async (options) => new MemoryPetStore(options));

describe('MemoryPetStore pages', () => {
  const draft = (n: number): PetDraft => ({
    name: `Pet ${n}`,
    categoryId: 1,
    status: n % 2 === 0 ? 'sold' : 'available',
  });
  async function storeOf(pets: number): Promise<MemoryPetStore> {
    const store = new MemoryPetStore();
    for (let n = 1; n <= pets; n++) await store.create(draft(n));
    return store;
  }

  it('answers a page of one status after the cursor', async () => {
    const store = await storeOf(30);
    const page = await readPage(store, { limit: 5, status: 'sold', after: 4 });
    expect(page.pets.map((p) => p.id)).toEqual([6, 8, 10, 12, 14]);
    expect(page.hasMore).toBe(true);
  });

  it('shows a new pet on the page still filling', async () => {
    const store = await storeOf(3);
    expect((await readPage(store, { limit: 5 })).pets.map((p) => p.id)).toEqual([1, 2, 3]);
    await store.create(draft(4));
    expect((await readPage(store, { limit: 5 })).pets.map((p) => p.id)).toEqual([1, 2, 3, 4]);
  });

  it('turns hasMore on for a full page once a pet follows it', async () => {
    const store = await storeOf(4);
    expect((await readPage(store, { limit: 4 })).hasMore).toBe(false);
    await store.create(draft(5));
    const later = await readPage(store, { limit: 4 });
    expect(later.pets.map((p) => p.id)).toEqual([1, 2, 3, 4]);
    expect(later.hasMore).toBe(true);
  });

  it('answers every page rightly, asked twice', async () => {
    const store = await storeOf(300);
    for (let round = 0; round < 2; round++) {
      for (let after = 0; after < 200; after++) {
        const page = await readPage(store, { limit: 3, after });
        expect(page.pets.map((p) => p.id)).toEqual([after + 1, after + 2, after + 3]);
        expect(page.hasMore).toBe(true);
      }
    }
  });
});

describe('MemoryPetStore idempotency keys', () => {
  it('forgets a key at its expiry even when the clock went back while it was kept', async () => {
    const ttl = IDEMPOTENCY_KEY_TTL_MS;
    let now = 100;
    const store = new MemoryPetStore({ clock: () => now });
    const draft: PetDraft = { name: 'Rex', categoryId: 1, status: 'available' };
    const once = (key: string) => store.createOnce({ scope: 's', key, fingerprint: 'f', draft });
    await once('later');
    // The clock steps back (an adjusted system clock): the next key expires before the first.
    now = 0;
    const first = await once('sooner');
    expect(first.outcome).toBe('created');
    // `sooner` has expired, `later` has not.
    now = ttl;
    const again = await once('sooner');
    expect(again.outcome).toBe('created');
    if (first.outcome === 'created' && again.outcome === 'created') {
      expect(again.pet.id).not.toBe(first.pet.id);
    }
    expect((await once('later')).outcome).toBe('replayed');
  });
});
