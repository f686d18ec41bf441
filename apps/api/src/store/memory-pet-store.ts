import { PET_STATUSES, type PetStatus } from '@animal-store/contract';
import type { ListPetsOptions, PetDraft, PetPage, PetStore, StoredPet } from './pet-store.js';

/** Index of the first pet whose id is greater than `after` in an id-ascending array. */
function firstAfter(pets: readonly StoredPet[], after: number): number {
  let low = 0;
  let high = pets.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((pets[mid] as StoredPet).id <= after) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The embedded default store. Ids only grow and pets are never removed, so appending keeps
 * every list sorted: a page is a binary search plus a slice, whatever the size.
 */
export class MemoryPetStore implements PetStore {
  #nextId = 1;
  readonly #byId = new Map<number, StoredPet>();
  readonly #all: StoredPet[] = [];
  readonly #byStatus = new Map<PetStatus, StoredPet[]>(PET_STATUSES.map((s) => [s, []]));

  async create(draft: PetDraft): Promise<StoredPet> {
    const pet: StoredPet = {
      id: this.#nextId++,
      name: draft.name,
      categoryId: draft.categoryId,
      status: draft.status,
    };
    this.#byId.set(pet.id, pet);
    this.#all.push(pet);
    this.#byStatus.get(pet.status)?.push(pet);
    return pet;
  }

  async get(id: number): Promise<StoredPet | undefined> {
    return this.#byId.get(id);
  }

  async list({ limit, status, after }: ListPetsOptions): Promise<PetPage> {
    const source = status === undefined ? this.#all : (this.#byStatus.get(status) ?? []);
    const start = after === undefined ? 0 : firstAfter(source, after);
    const pets = source.slice(start, start + limit);
    return { pets, hasMore: start + limit < source.length };
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}
}
