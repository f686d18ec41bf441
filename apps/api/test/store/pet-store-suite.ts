import {
  ID_MAX,
  IDEMPOTENCY_KEY_TTL_MS,
  LIMIT_MAX,
  type ListPetsQuery,
  Pet,
} from '@animal-store/contract';
import { afterEach, describe, expect, it } from 'vitest';
import type { IdempotentCreate, PetJson, PetStore, StoredPet } from '../../src/store/pet-store.js';
import { petOfJson, readPage, readPet } from '../helpers/store.js';
import {
  DRAFT_FIELDS,
  exampleDraft,
  examplesOf,
  filterMatrix,
  filterQueries,
  matches,
} from './pet-examples.js';

/** The ids of one page, and the cursor of the next (undefined after the last page). */
interface PageIds {
  ids: number[];
  next: number | undefined;
}

/** Every page `read` gives, from the first, following its cursor as the API does. */
async function pagesThrough(
  read: (after: number | undefined) => Promise<PageIds>,
): Promise<number[][]> {
  const pages: number[][] = [];
  let after: number | undefined;
  for (;;) {
    const { ids, next } = await read(after);
    pages.push(ids);
    if (next === undefined) return pages;
    after = next;
  }
}

/** Every page of `query`, `limit` pets at a time. */
const pagesOf = (store: PetStore, query: Partial<ListPetsQuery>, limit: number) =>
  pagesThrough(async (after) => {
    const page = await readPage(store, { ...query, limit, after });
    return {
      ids: page.pets.map((p) => p.id),
      next: page.hasMore ? page.pets.at(-1)?.id : undefined,
    };
  });

/** `pagesOf` through `listJson`, the stored JSON texts the API sends. */
const jsonPagesOf = (store: PetStore, query: Partial<ListPetsQuery>, limit: number) =>
  pagesThrough(async (after) => {
    const page = await store.listJson({ ...query, limit, after });
    const pets = JSON.parse(page.json) as StoredPet[];
    expect(page.lastId).toBe(pets.at(-1)?.id);
    return { ids: pets.map((p) => p.id), next: page.hasMore ? page.lastId : undefined };
  });

/** `ids` cut into pages of `limit`: what paging a filtered list must give. */
function pagesFrom(ids: readonly number[], limit: number): number[][] {
  const pages: number[][] = [];
  for (let at = 0; at < ids.length; at += limit) pages.push(ids.slice(at, at + limit));
  return pages.length > 0 ? pages : [[]];
}

/** What the suite asks of an adapter's factory. */
export interface TestStoreOptions {
  /** The store's clock (idempotency keys expire). */
  clock?: () => number;
}

/** The behaviour every PetStore adapter must show; run once per adapter. */
export function petStoreSuite(
  name: string,
  open: (options: TestStoreOptions) => Promise<PetStore>,
): void {
  describe(name, () => {
    const opened: PetStore[] = [];
    const fresh = async (options: TestStoreOptions = {}) => {
      const store = await open(options);
      opened.push(store);
      return store;
    };
    const once = (overrides: Partial<IdempotentCreate> = {}): IdempotentCreate => ({
      scope: 'client-a',
      key: 'key-1',
      fingerprint: 'f1',
      draft: { name: 'Once', categoryId: 1, status: 'available' },
      ...overrides,
    });
    const count = async (store: PetStore) => (await readPage(store, { limit: 1000 })).pets.length;
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    });

    it('assigns ascending unique ids and returns what was stored', async () => {
      const store = await fresh();
      const a = petOfJson(await store.create({ name: 'a', categoryId: 1, status: 'available' }));
      const b = petOfJson(await store.create({ name: 'b', categoryId: 2, status: 'sold' }));
      expect(b.id).toBeGreaterThan(a.id);
      expect(await readPet(store, a.id)).toEqual(a);
      expect(await readPet(store, b.id)).toEqual({
        id: b.id,
        name: 'b',
        categoryId: 2,
        status: 'sold',
      });
    });

    it('returns undefined for an absent id', async () => {
      const store = await fresh();
      expect(await readPet(store, 424242)).toBeUndefined();
    });

    it('keeps the largest exact integer categoryId', async () => {
      const store = await fresh();
      const pet = await store.create({ name: 'big', categoryId: ID_MAX, status: 'pending' });
      expect((await readPet(store, pet.id))?.categoryId).toBe(ID_MAX);
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
      const first = await readPage(store, { limit: 5 });
      expect(first.pets.map((p) => p.id)).toEqual(ids.slice(0, 5));
      expect(first.hasMore).toBe(true);
      const rest = await readPage(store, { limit: 100, after: ids[4] });
      expect(rest.pets.map((p) => p.id)).toEqual(ids.slice(5));
      expect(rest.hasMore).toBe(false);
      const sold = await readPage(store, { limit: 3, status: 'sold' });
      expect(sold.pets.map((p) => p.id)).toEqual([ids[2], ids[5], ids[8]]);
      expect(sold.hasMore).toBe(true);
      const soldRest = await readPage(store, { limit: 3, status: 'sold', after: ids[8] });
      expect(soldRest.pets.map((p) => p.id)).toEqual([ids[11]]);
      expect(soldRest.hasMore).toBe(false);
    });

    it('hasMore is false when exactly limit pets remain', async () => {
      const store = await fresh();
      for (let i = 0; i < 4; i++)
        await store.create({ name: `p${i}`, categoryId: 1, status: 'available' });
      expect((await readPage(store, { limit: 4 })).hasMore).toBe(false);
      expect((await readPage(store, { limit: 3 })).hasMore).toBe(true);
    });

    it('gives concurrent creates distinct ids and loses none', async () => {
      const store = await fresh();
      const created = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          store.create({ name: `c${i}`, categoryId: 1, status: 'available' }),
        ),
      );
      expect(new Set(created.map((p) => p.id)).size).toBe(200);
      const listed = await readPage(store, { limit: 1000 });
      expect(listed.pets.map((p) => p.id).sort((x, y) => x - y)).toEqual(
        created.map((p) => p.id).sort((x, y) => x - y),
      );
    });

    it('creates once per idempotency key: a repeat gets the same pet and stores nothing', async () => {
      const store = await fresh();
      const first = await store.createOnce(once());
      expect(first.outcome).toBe('created');
      const pet = first.outcome === 'created' ? first.pet : undefined;
      expect(pet && petOfJson(pet)).toEqual({
        id: pet?.id,
        name: 'Once',
        categoryId: 1,
        status: 'available',
      });
      expect(await store.createOnce(once())).toEqual({ outcome: 'replayed', pet });
      expect(await store.createOnce(once())).toEqual({ outcome: 'replayed', pet });
      expect(await count(store)).toBe(1);
      expect(await store.getJson(pet?.id ?? 0)).toBe(pet?.json);
    });

    it('refuses an idempotency key reused with another fingerprint, storing nothing', async () => {
      const store = await fresh();
      await store.createOnce(once());
      const reused = await store.createOnce(
        once({ fingerprint: 'f2', draft: { name: 'Other', categoryId: 2, status: 'sold' } }),
      );
      expect(reused).toEqual({ outcome: 'key-reused' });
      expect(await count(store)).toBe(1);
    });

    it('keeps the idempotency keys of different scopes apart', async () => {
      const store = await fresh();
      const a = await store.createOnce(once({ scope: 'client-a' }));
      const b = await store.createOnce(once({ scope: 'client-b', fingerprint: 'f2' }));
      expect([a.outcome, b.outcome]).toEqual(['created', 'created']);
      expect(await count(store)).toBe(2);
    });

    it('forgets an idempotency key 24 hours after its first use', async () => {
      let now = new Date('2026-06-01T00:00:00Z');
      const store = await fresh({ clock: () => now.getTime() });
      await store.createOnce(once());
      now = new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS - 1);
      expect((await store.createOnce(once())).outcome).toBe('replayed');
      now = new Date(now.getTime() + 1);
      const again = await store.createOnce(once({ fingerprint: 'f2' }));
      expect(again.outcome).toBe('created');
      expect(await count(store)).toBe(2);
    });

    it('lets one of many concurrent duplicates create; the others wait or get its pet', async () => {
      const store = await fresh();
      const results = await Promise.all(Array.from({ length: 20 }, () => store.createOnce(once())));
      const outcomes = results.map((r) => r.outcome);
      expect(outcomes.filter((o) => o === 'created')).toHaveLength(1);
      expect(
        outcomes.filter((o) => o !== 'created' && o !== 'in-flight' && o !== 'replayed'),
      ).toEqual([]);
      expect(await count(store)).toBe(1);
    });

    it("keeps every property of the contract's Pet, each of its examples", async () => {
      const store = await fresh();
      for (const field of DRAFT_FIELDS) {
        for (const [n, value] of examplesOf(field).entries()) {
          const draft = { ...exampleDraft(() => n), [field]: value };
          const stored = await store.create(draft);
          const created = petOfJson(stored);
          const expected = { id: created.id, ...draft };
          expect(Object.keys(created).sort(), field).toEqual(Object.keys(Pet.properties).sort());
          expect(created, field).toEqual(expected);
          expect(await readPet(store, created.id), field).toEqual(expected);
          const listed = await readPage(store, { limit: 1, after: created.id - 1 });
          expect(listed.pets, field).toEqual([expected]);
          expect(await store.getJson(created.id), field).toBe(stored.json);
          const page = await store.listJson({ limit: 1, after: created.id - 1 });
          expect(JSON.parse(page.json), field).toEqual([expected]);
        }
      }
    });

    it("keeps every property of the contract's Pet through an idempotent create", async () => {
      const store = await fresh();
      const draft = exampleDraft(() => 1);
      const first = await store.createOnce(once({ draft }));
      const pet = first.outcome === 'created' ? petOfJson(first.pet) : undefined;
      expect(pet).toEqual({ id: expect.any(Number), ...draft });
      const again = await store.createOnce(once({ draft }));
      expect(again.outcome === 'replayed' && petOfJson(again.pet)).toEqual(pet);
      expect(await readPet(store, pet?.id ?? 0)).toEqual(pet);
    });

    it.each(filterQueries())('lists by $name, whole and page by page', async ({ query }) => {
      const store = await fresh();
      const pets: StoredPet[] = [];
      for (const draft of filterMatrix()) pets.push(petOfJson(await store.create(draft)));
      const expected = pets.filter((pet) => matches(pet, query)).map((pet) => pet.id);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(pets.length);
      const whole = await readPage(store, { ...query, limit: LIMIT_MAX });
      expect(whole.pets.map((p) => p.id)).toEqual(expected);
      expect(whole.hasMore).toBe(false);
      expect(await pagesOf(store, query, 2)).toEqual(pagesFrom(expected, 2));
      expect(await jsonPagesOf(store, query, 2)).toEqual(pagesFrom(expected, 2));
      const [, ...rest] = expected;
      const afterFirst = await readPage(store, { ...query, limit: LIMIT_MAX, after: expected[0] });
      expect(afterFirst.pets.map((p) => p.id)).toEqual(rest);
    });

    it("answers a pet with its stored text, a page with the join of its pets' texts", async () => {
      const store = await fresh();
      const created: PetJson[] = [];
      for (const draft of filterMatrix()) created.push(await store.create(draft));
      for (const pet of created) expect(await store.getJson(pet.id)).toBe(pet.json);
      expect(await store.getJson(424242)).toBeUndefined();
      const textOf = new Map(created.map((pet) => [pet.id, pet.json]));
      const last = (created.at(-1) as PetJson).id;
      for (const { query } of [{ query: {} }, ...filterQueries()]) {
        for (const options of [
          { ...query, limit: 2 },
          { ...query, limit: LIMIT_MAX },
          { ...query, limit: 3, after: (created[4] as PetJson).id },
          { ...query, limit: 5, after: last },
        ]) {
          const page = await store.listJson(options);
          const ids = (JSON.parse(page.json) as StoredPet[]).map((pet) => pet.id);
          expect(page.json, JSON.stringify(options)).toBe(
            `[${ids.map((id) => textOf.get(id)).join(',')}]`,
          );
          expect(page.lastId, JSON.stringify(options)).toBe(ids.at(-1));
        }
      }
    });

    it('answers ping when healthy', async () => {
      const store = await fresh();
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
