import { Pet, type ResolvedListPetsQuery } from '@animal-store/contract';

/** A pet as the store keeps it: the contract's Pet, as the API returns it. */
export type StoredPet = Pet;

/** A new pet with its status resolved: a Pet before it has an id. */
export type PetDraft = Omit<Pet, 'id'>;

/** A `listPets` query, its limit resolved (`after`: only pets whose id is greater). */
export type ListPetsOptions = ResolvedListPetsQuery;

const PET_FIELDS = Object.keys(Pet.properties).filter(
  (name) => name !== 'id',
) as (keyof PetDraft)[];

/**
 * The pet with `id` and the draft's fields, in the order the contract names them: a store
 * builds every pet it returns with it, so each answer writes its fields in one order.
 */
export function petOf(id: number, draft: PetDraft): StoredPet {
  const pet: Record<string, unknown> = { id };
  for (const name of PET_FIELDS) {
    if (draft[name] !== undefined) pet[name] = draft[name];
  }
  return pet as StoredPet;
}

/** A stored pet as the API sends it: its id, and its JSON text (`petJson`). */
export interface PetJson {
  id: number;
  json: string;
}

/** A page as the API sends it: the JSON text of its array, made of the pets' stored texts. */
export interface PetPageJson {
  /** `[` + the stored JSON texts of at most `limit` pets, ascending by id, joined by `,` + `]`. */
  json: string;
  /** The id of the page's last pet (undefined for an empty page): the next page's `after`. */
  lastId: number | undefined;
  /** Whether more pets follow the last one. */
  hasMore: boolean;
}

/**
 * The JSON text of a pet as the API sends it. Pets never change once stored, so a store makes
 * each pet's text once, when it stores it, and answers creates and reads with it: nothing is
 * serialised twice, and a page is a join.
 */
export const petJson = (pet: StoredPet): string => JSON.stringify(pet);

/** A page's JSON text: the join of its pets' texts. */
export const pageJson = (texts: readonly string[]): string => `[${texts.join(',')}]`;

/** A create that may be a retry: one `key` of one `scope` creates at most one pet. */
export interface IdempotentCreate {
  /** Whose key it is (the API key's name): keys of different callers never meet. */
  scope: string;
  /** The client's `Idempotency-Key`. */
  key: string;
  /** SHA-256 (hex) of the request body: the same key with another body is refused. */
  fingerprint: string;
  draft: PetDraft;
}

export type IdempotentCreateResult =
  /** This call created the pet (or finished the create of an earlier call that died). */
  | { outcome: 'created'; pet: PetJson }
  /** An earlier call with this key and fingerprint created it: nothing new was stored. */
  | { outcome: 'replayed'; pet: PetJson }
  /** The key was used with another fingerprint: nothing was stored. */
  | { outcome: 'key-reused' }
  /** An earlier call with this key is still at work: try again shortly. */
  | { outcome: 'in-flight' };

/** How adapters name an idempotency record: unambiguous for any scope and key. */
export const idempotencyRecordId = (scope: string, key: string): string =>
  JSON.stringify([scope, key]);

/**
 * The storage port: the in-memory and MongoDB adapters both pass `test/store/pet-store-suite.ts`.
 * Every pet comes out as the JSON text kept since it was stored (`petJson`).
 */
export interface PetStore {
  /** Stores a new pet under a fresh, unique, ascending id. */
  create(draft: PetDraft): Promise<PetJson>;
  /**
   * `create`, at most once per scope and key for `IDEMPOTENCY_KEY_TTL_MS` (24 h): a repeat with
   * the same fingerprint gets the first pet back, even when the call that created it never
   * finished (a crash, a lost connection).
   */
  createOnce(request: IdempotentCreate): Promise<IdempotentCreateResult>;
  /** The pet with `id`, as its JSON text. */
  getJson(id: number): Promise<string | undefined>;
  /** A page of pets, as the join of their JSON texts (`pageJson`). */
  listJson(options: ListPetsOptions): Promise<PetPageJson>;
  /** Resolves when the store can serve requests; rejects with `StoreUnavailableError` otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Why a store could not answer: its database is unreachable, or did not answer in time. */
export type UnavailableKind = 'unavailable' | 'timeout';

/** Thrown by a store that cannot reach its database; the API answers 503. */
export class StoreUnavailableError extends Error {
  readonly kind: UnavailableKind;

  constructor(
    message = 'the store is unavailable',
    options?: ErrorOptions & { kind?: UnavailableKind },
  ) {
    super(message, options);
    this.name = 'StoreUnavailableError';
    this.kind = options?.kind ?? 'unavailable';
  }
}
