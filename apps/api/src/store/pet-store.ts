import type { NewPet, Pet, PetStatus } from '@animal-store/contract';

/** A pet as the store keeps it: the status is always set (the default is applied before). */
export type StoredPet = Pet & { status: PetStatus };

/** A new pet with its status resolved. */
export type PetDraft = NewPet & { status: PetStatus };

export interface ListPetsOptions {
  limit: number;
  status?: PetStatus;
  /** Only pets whose id is greater than this. */
  after?: number;
}

export interface PetPage {
  /** At most `limit` pets, ascending by id. */
  pets: StoredPet[];
  /** Whether more pets follow the last one. */
  hasMore: boolean;
}

/** The storage port: the in-memory and MongoDB adapters both pass `test/store/pet-store-suite.ts`. */
export interface PetStore {
  /** Stores a new pet under a fresh, unique, ascending id. */
  create(draft: PetDraft): Promise<StoredPet>;
  get(id: number): Promise<StoredPet | undefined>;
  list(options: ListPetsOptions): Promise<PetPage>;
  /** Resolves when the store can serve requests; rejects with `StoreUnavailableError` otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Thrown by a store that cannot reach its database; the API answers 503. */
export class StoreUnavailableError extends Error {
  constructor(message = 'the store is unavailable', options?: ErrorOptions) {
    super(message, options);
    this.name = 'StoreUnavailableError';
  }
}
