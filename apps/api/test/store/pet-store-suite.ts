import { ID_MAX } from '@animal-store/contract';
import { afterEach, describe, expect, it } from 'vitest';
import type { PetStore } from '../../src/store/pet-store.js';

/** The behaviour every PetStore adapter must show; run once per adapter. */
export function petStoreSuite(name: string, open: () => Promise<PetStore>): void {
  describe(name, () => {
    const opened: PetStore[] = [];
    const fresh = async () => {
      const store = await open();
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    });

    it('assigns ascending unique ids and returns what was stored', async () => {
      const store = await fresh();
      const a = await store.create({ name: 'a', categoryId: 1, status: 'available' });
      const b = await store.create({ name: 'b', categoryId: 2, status: 'sold' });
      expect(b.id).toBeGreaterThan(a.id);
      expect(await store.get(a.id)).toEqual(a);
      expect(await store.get(b.id)).toEqual({ id: b.id, name: 'b', categoryId: 2, status: 'sold' });
    });

    it('returns undefined for an absent id', async () => {
      const store = await fresh();
      expect(await store.get(424242)).toBeUndefined();
    });

    it('keeps the largest exact integer categoryId', async () => {
      const store = await fresh();
      const pet = await store.create({ name: 'big', categoryId: ID_MAX, status: 'pending' });
      expect((await store.get(pet.id))?.categoryId).toBe(ID_MAX);
    });

    it('lists ascending by id with limit, status, after and hasMore', async () => {
      const store = await fresh();
      const statuses = ['available', 'pending', 'sold'] as const;
      const ids: number[] = [];
      for (let i = 0; i < 12; i++) {
        ids.push(
          (await store.create({ name: `p${i}`, categoryId: 1, status: statuses[i % 3] as 'sold' }))
            .id,
        );
      }
      const first = await store.list({ limit: 5 });
      expect(first.pets.map((p) => p.id)).toEqual(ids.slice(0, 5));
      expect(first.hasMore).toBe(true);
      const rest = await store.list({ limit: 100, after: ids[4] });
      expect(rest.pets.map((p) => p.id)).toEqual(ids.slice(5));
      expect(rest.hasMore).toBe(false);
      const sold = await store.list({ limit: 3, status: 'sold' });
      expect(sold.pets.map((p) => p.id)).toEqual([ids[2], ids[5], ids[8]]);
      expect(sold.hasMore).toBe(true);
      const soldRest = await store.list({ limit: 3, status: 'sold', after: ids[8] });
      expect(soldRest.pets.map((p) => p.id)).toEqual([ids[11]]);
      expect(soldRest.hasMore).toBe(false);
    });

    it('hasMore is false when exactly limit pets remain', async () => {
      const store = await fresh();
      for (let i = 0; i < 4; i++)
        await store.create({ name: `p${i}`, categoryId: 1, status: 'available' });
      expect((await store.list({ limit: 4 })).hasMore).toBe(false);
      expect((await store.list({ limit: 3 })).hasMore).toBe(true);
    });

    it('gives concurrent creates distinct ids and loses none', async () => {
      const store = await fresh();
      const created = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          store.create({ name: `c${i}`, categoryId: 1, status: 'available' }),
        ),
      );
      expect(new Set(created.map((p) => p.id)).size).toBe(200);
      const listed = await store.list({ limit: 1000 });
      expect(listed.pets.map((p) => p.id).sort((x, y) => x - y)).toEqual(
        created.map((p) => p.id).sort((x, y) => x - y),
      );
    });

    it('answers ping when healthy', async () => {
      const store = await fresh();
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
