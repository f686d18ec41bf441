import type { Pet } from '@animal-store/contract';
import { uniqueDbName } from '@animal-store/test-db';
import { inject } from 'vitest';
import { MemoryPetStore } from '../../src/store/memory-pet-store.js';
import { MongoPetStore, type MongoPetStoreOptions } from '../../src/store/mongo-pet-store.js';
import type { ListPetsOptions, PetJson, PetStore } from '../../src/store/pet-store.js';

/** Which adapter the black-box suites run against: `memory` (default) or `mongo`. */
export const testStoreKind = process.env.ANIMAL_STORE_TEST_STORE ?? 'memory';

/** A MongoDB store on a database of its own, dropped when the store is closed. */
export async function openMongoTestStore(
  uri = inject('mongoUri'),
  options: MongoPetStoreOptions = {},
): Promise<MongoPetStore> {
  const store = await MongoPetStore.connect(uri, uniqueDbName(), options);
  const close = store.close.bind(store);
  store.close = async () => {
    await store.db.dropDatabase().catch(() => {});
    await close();
  };
  return store;
}

/** A fresh, empty store of the kind under test. */
export async function createTestStore(): Promise<PetStore> {
  if (testStoreKind === 'memory') return new MemoryPetStore();
  if (testStoreKind === 'mongo') return openMongoTestStore();
  throw new Error(`unknown ANIMAL_STORE_TEST_STORE ${JSON.stringify(testStoreKind)}`);
}

/** The pet with `id`, read through the store's one read shape (its JSON text). */
export async function readPet(
  store: Pick<PetStore, 'getJson'>,
  id: number,
): Promise<Pet | undefined> {
  const text = await store.getJson(id);
  return text === undefined ? undefined : (JSON.parse(text) as Pet);
}

/** A page of pets, read through the store's one read shape (the join of their JSON texts). */
export async function readPage(
  store: Pick<PetStore, 'listJson'>,
  options: ListPetsOptions,
): Promise<{ pets: Pet[]; hasMore: boolean }> {
  const page = await store.listJson(options);
  return { pets: JSON.parse(page.json) as Pet[], hasMore: page.hasMore };
}

/** A pet a store answered a create with, as an object. */
export const petOfJson = (pet: PetJson): Pet => JSON.parse(pet.json) as Pet;
