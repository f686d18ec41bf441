import { describe, expect, it } from 'vitest';
import { petListJson } from '../src/http/pet-json.js';
import { MemoryPetStore } from '../src/store/memory-pet-store.js';
import type { PetDraft } from '../src/store/pet-store.js';
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

  it('answers a full page with the same array, so its JSON text is made once', async () => {
    const store = await storeOf(30);
    const first = await store.list({ limit: 5, status: 'sold', after: 4 });
    const again = await store.list({ limit: 5, status: 'sold', after: 4 });
    expect(again.pets).toBe(first.pets);
    expect(first.pets.map((p) => p.id)).toEqual([6, 8, 10, 12, 14]);
    expect(petListJson(again.pets)).toBe(JSON.stringify(first.pets));
  });

  it('answers the page still filling afresh: a new pet appears in it', async () => {
    const store = await storeOf(3);
    const before = await store.list({ limit: 5 });
    expect(petListJson(before.pets)).toBe(JSON.stringify(before.pets));
    await store.create(draft(4));
    const after = await store.list({ limit: 5 });
    expect(after.pets.map((p) => p.id)).toEqual([1, 2, 3, 4]);
    expect(petListJson(after.pets)).toBe(JSON.stringify(after.pets));
  });

  it('turns hasMore on for a kept page once a pet follows it', async () => {
    const store = await storeOf(4);
    const full = await store.list({ limit: 4 });
    expect(full.hasMore).toBe(false);
    await store.create(draft(5));
    const later = await store.list({ limit: 4 });
    expect(later.pets).toBe(full.pets);
    expect(later.hasMore).toBe(true);
  });

  it('answers every page rightly beyond the number it keeps', async () => {
    const store = await storeOf(300);
    for (let round = 0; round < 2; round++) {
      for (let after = 0; after < 200; after++) {
        const page = await store.list({ limit: 3, after });
        expect(page.pets.map((p) => p.id)).toEqual([after + 1, after + 2, after + 3]);
        expect(page.hasMore).toBe(true);
      }
    }
  });
});
