import { IDEMPOTENCY_KEY_TTL_MS, PET_STATUSES, type PetStatus } from '@animal-store/contract';
import { type Clock, systemClock } from '../clock.js';
import {
  type IdempotentCreate,
  type IdempotentCreateResult,
  idempotencyRecordId,
  type ListPetsOptions,
  type PetDraft,
  type PetJson,
  type PetPageJson,
  type PetStore,
  pageJson,
  petJson,
  petOf,
} from './pet-store.js';

export interface MemoryPetStoreOptions {
  /** Injected so tests can move time (idempotency keys expire). */
  clock?: Clock;
}

interface IdempotencyRecord {
  fingerprint: string;
  expiresAt: number;
  /** Set once the create finished; absent while it is in flight. */
  pet?: PetJson;
}

/** Index of the first id greater than `after` in an ascending array of ids. */
function firstAfter(ids: readonly number[], after: number): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((ids[mid] as number) <= after) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The ids of `pets` stored pets, `1..pets`, as the list of every status. */
class AllIds {
  constructor(readonly length: number) {}
}

/**
 * The embedded default store. Ids are 1, 2, 3… and pets are never changed or removed, so each pet
 * is kept as one thing: its JSON text (`petJson`), at index `id - 1`; each status keeps the
 * ascending ids of its pets. A read answers with stored texts, and a page is a binary search
 * plus the join of a slice (`pageJson`), whatever the size. A pet costs its text and two array
 * slots: no object, no map entry (the bench reports the RSS per stored pet).
 */
export class MemoryPetStore implements PetStore {
  readonly #texts: string[] = [];
  readonly #byStatus = new Map<PetStatus, number[]>(PET_STATUSES.map((s) => [s, []]));
  /** In insertion order, which is expiry order: the oldest are forgotten from the front. */
  readonly #idempotency = new Map<string, IdempotencyRecord>();
  readonly #clock: Clock;

  constructor(options: MemoryPetStoreOptions = {}) {
    this.#clock = options.clock ?? systemClock;
  }

  async create(draft: PetDraft): Promise<PetJson> {
    const id = this.#texts.length + 1;
    const json = petJson(petOf(id, draft));
    this.#texts.push(json);
    this.#byStatus.get(draft.status)?.push(id);
    return { id, json };
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

  async getJson(id: number): Promise<string | undefined> {
    return Number.isSafeInteger(id) && id >= 1 ? this.#texts[id - 1] : undefined;
  }

  /** The page's ids: `[start, end)` of the status's ids, or of `1..n` without a status. */
  #page({ limit, status, after }: ListPetsOptions): {
    ids: readonly number[] | AllIds;
    start: number;
    end: number;
  } {
    const ids =
      status === undefined ? new AllIds(this.#texts.length) : (this.#byStatus.get(status) ?? []);
    let start = 0;
    if (after !== undefined) {
      // Without a status the ids are 1..n: the first after `after` is at index `after`.
      start =
        ids instanceof AllIds ? Math.min(Math.max(after, 0), ids.length) : firstAfter(ids, after);
    }
    return { ids, start, end: Math.min(start + limit, ids.length) };
  }

  #idAt(ids: readonly number[] | AllIds, index: number): number {
    return ids instanceof AllIds ? index + 1 : (ids[index] as number);
  }

  async listJson(options: ListPetsOptions): Promise<PetPageJson> {
    const { ids, start, end } = this.#page(options);
    const texts =
      ids instanceof AllIds
        ? this.#texts.slice(start, end)
        : ids.slice(start, end).map((id) => this.#texts[id - 1] as string);
    return {
      json: pageJson(texts),
      lastId: end > start ? this.#idAt(ids, end - 1) : undefined,
      hasMore: end < ids.length,
    };
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}
}
