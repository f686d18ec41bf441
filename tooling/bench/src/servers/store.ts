import { MemoryPetStore, type PetStore } from '@animal-store/api';
import { seedPet } from '../scenario.js';
import type { StoreSpec } from './protocol.js';

/** Opens the store a server child runs on: the very class the API uses. */
export async function openStore(spec: StoreSpec): Promise<PetStore> {
  switch (spec.kind) {
    case 'memory':
      return new MemoryPetStore();
    case 'mongo':
      throw new Error('the MongoDB store is not built yet');
  }
}

/**
 * Fills an empty store with `pets` pets, in-process and before listening (not over HTTP), so a
 * million pets take about a second.
 */
export async function seedStore(store: PetStore, pets: number): Promise<void> {
  for (let n = 1; n <= pets; n++) await store.create(seedPet(n));
}
