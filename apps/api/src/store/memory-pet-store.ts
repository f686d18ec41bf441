import { IDEMPOTENCY_KEY_TTL_MS, PET_STATUSES, type PetStatus } from '@animal-store/contract';
import { type Clock, systemClock } from '../clock.js';
import {
  type IdempotentCreate,
  type IdempotentCreateResult,
  idempotencyRecordId,
  type ListPetsOptions,
  type PetDraft,
  type PetPage,
  type PetStore,
  petOf,
  type StoredPet,
} from './pet-store.js';

export interface MemoryPetStoreOptions {
  /** Injected so tests can move time (idempotency keys expire). */
  clock?: Clock;
}

interface IdempotencyRecord {
  fingerprint: string;
  expiresAt: number;
  /** Set once the create finished; absent while it is in flight. */
  pet?: StoredPet;
}

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
  /** In insertion order, which is expiry order: the oldest are forgotten from the front. */
  readonly #idempotency = new Map<string, IdempotencyRecord>();
  readonly #clock: Clock;

  constructor(options: MemoryPetStoreOptions = {}) {
    this.#clock = options.clock ?? systemClock;
  }

  async create(draft: PetDraft): Promise<StoredPet> {
    const pet = petOf(this.#nextId++, draft);
    this.#byId.set(pet.id, pet);
    this.#all.push(pet);
    this.#byStatus.get(pet.status)?.push(pet);
    return pet;
  }

  async createOnce({
    scope,
    key,
    fingerprint,
    draft,
  }: IdempotentCreate): Promise<IdempotentCreateResult> {
    const now = this.#clock();
    this.#forgetExpired(now);
    const id = idempotencyRecordId(scope, key);
    const found = this.#idempotency.get(id);
    if (found && found.expiresAt > now) {
      if (found.fingerprint !== fingerprint) return { outcome: 'key-reused' };
      return found.pet ? { outcome: 'replayed', pet: found.pet } : { outcome: 'in-flight' };
    }
    const record: IdempotencyRecord = { fingerprint, expiresAt: now + IDEMPOTENCY_KEY_TTL_MS };
    this.#idempotency.delete(id);
    this.#idempotency.set(id, record);
    try {
      const pet = await this.create(draft);
      record.pet = pet;
      return { outcome: 'created', pet };
    } catch (error) {
      this.#idempotency.delete(id);
      throw error;
    }
  }

  #forgetExpired(now: number): void {
    for (const [id, record] of this.#idempotency) {
      if (record.expiresAt > now) break;
      this.#idempotency.delete(id);
    }
  }

  async get(id: number): Promise<StoredPet | undefined> {
    return this.#byId.get(id);
  }

  // A fresh slice, serialised per request: API/limit on `GET /v1/pets?limit=20` 0.34-0.35, 0.52
  // with pages cached by status and their JSON texts kept (short runs, issue #40).
  async list({ limit, status, after }: ListPetsOptions): Promise<PetPage> {
    const source = status === undefined ? this.#all : (this.#byStatus.get(status) ?? []);
    const start = after === undefined ? 0 : firstAfter(source, after);
    return { pets: source.slice(start, start + limit), hasMore: start + limit < source.length };
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}
}
