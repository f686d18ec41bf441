import { MemoryPetStore } from '../../src/store/memory-pet-store.js';
import type { PetStore } from '../../src/store/pet-store.js';

/** Which adapter the black-box suites run against: `memory` (default) or `mongo`. */
export const testStoreKind = process.env.ANIMAL_STORE_TEST_STORE ?? 'memory';

/** A fresh, empty store of the kind under test. */
export async function createTestStore(): Promise<PetStore> {
  if (testStoreKind === 'memory') return new MemoryPetStore();
  throw new Error(`unknown ANIMAL_STORE_TEST_STORE ${JSON.stringify(testStoreKind)}`);
}
