import { randomUUID } from 'node:crypto';
import { type Collection, Long, MongoServerError } from 'mongodb';
import type { Clock } from '../clock.js';
import { type DatabaseCall, guarded, isDuplicateKey } from './mongo-errors.js';
import { type PetDocument, petJsonRecord, toNumber, toPetDocument } from './mongo-pet-document.js';
import {
  type IdempotentCreate,
  type IdempotentCreateResult,
  idempotencyRecordId,
  type PetDraft,
  type PetJson,
} from './pet-store.js';

/**
 * One `Idempotency-Key` of one caller. Inserted (unique `_id`) before the pet exists, with the
 * pet's id already reserved, so whoever finishes the create uses that same id.
 */
export interface IdempotencyDocument {
  /** `idempotencyRecordId(scope, key)`. */
  _id: string;
  /**
   * Random, made with the record: the pet's `idempotencyRecord`. A key used again after it
   * expired makes a new record, so a new instance and a new pet.
   */
  instance: string;
  fingerprint: string;
  /**
   * Written `in-flight`; whether the create is done is whether a pet with this `instance`
   * exists. `done` (with `pet`) only in records written before that, kept 24 hours at most.
   */
  state: 'in-flight' | 'done';
  /** The id the pet is (or will be) stored under. */
  petId: Long;
  /** The request holding the lease: a random token. */
  owner: string;
  /** Until when the holder is presumed alive; after it, a retry takes over. */
  leaseUntil: Date;
  createdAt: Date;
  /** A TTL index removes the record from then on. */
  expiresAt: Date;
  /** The created pet, in a `done` record. */
  pet?: PetDocument;
}

export interface MongoIdempotencyDeps {
  pets: Collection<PetDocument>;
  records: Collection<IdempotencyDocument>;
  /** A fresh pet id; `collided` says the last one turned out to be taken. */
  allocateId(collided: boolean): Promise<number>;
  now: Clock;
  leaseMs: number;
  ttlMs: number;
  /** Runs one database call, its errors as the store's (`MongoPetStore`'s `call`). */
  call: DatabaseCall;
}

/** Rounds of "the record changed under us" before giving up (it never takes more than two). */
const MAX_ROUNDS = 10;
/** Reserved ids found taken by a pet of another create, before giving up. */
const MAX_ID_COLLISIONS = 20;
/** How often expired records are deleted by hand where the server has no TTL indexes. */
const SWEEP_INTERVAL_MS = 60_000;

/** A record this request holds the lease of. */
interface Held {
  _id: string;
  instance: string;
  owner: string;
}

/** Another request took the record over (our lease ran out): it finishes the create. */
class LeaseLostError extends Error {}

/**
 * `createOnce` on MongoDB. Correctness rests on unique indexes alone (no transactions, no
 * reliance on atomic read-modify-write): the record's `_id` admits one holder per key; the pet's
 * `_id` is reserved in the record before the insert, so a takeover after a crash inserts under
 * the same id and finds the first insert instead of adding a second pet; the pet's
 * `idempotencyRecord` (unique) ties it to the record even if its id had to change.
 */
export class MongoIdempotency {
  readonly #deps: MongoIdempotencyDeps;
  /** Whether the server keeps a TTL index (FerretDB 1.x has none: we sweep instead). */
  #ttlIndex = true;
  #lastSweep = 0;

  constructor(deps: MongoIdempotencyDeps) {
    this.#deps = deps;
  }

  /** Creates the indexes idempotently: TTL on `expiresAt`, unique sparse `idempotencyRecord`. */
  async createIndexes(): Promise<void> {
    const { pets, records } = this.#deps;
    await guarded(() =>
      pets.createIndex(
        { idempotencyRecord: 1 },
        { name: 'idempotency_record', unique: true, sparse: true },
      ),
    );
    try {
      await guarded(() =>
        records.createIndex({ expiresAt: 1 }, { name: 'expires', expireAfterSeconds: 0 }),
      );
    } catch (error) {
      // 238 NotImplemented: FerretDB 1.x. Expiry is checked on read anyway; we sweep.
      if (!(error instanceof MongoServerError && error.code === 238)) throw error;
      this.#ttlIndex = false;
    }
  }

  async createOnce(request: IdempotentCreate): Promise<IdempotentCreateResult> {
    const { pets, records } = this.#deps;
    const _id = idempotencyRecordId(request.scope, request.key);
    // Reserved once per call; a repeat leaves it unused, a gap in the ids and nothing more.
    let petId: number | undefined;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const now = new Date(this.#deps.now());
      this.#sweep(now);
      const owner = randomUUID();
      const instance = randomUUID();
      petId ??= await this.#deps.allocateId(false);
      const reservedId = petId;
      const inserted = await this.#deps
        .call(() =>
          records.insertOne({
            _id,
            instance,
            fingerprint: request.fingerprint,
            state: 'in-flight',
            petId: Long.fromNumber(reservedId),
            owner,
            leaseUntil: new Date(now.getTime() + this.#deps.leaseMs),
            createdAt: now,
            expiresAt: new Date(now.getTime() + this.#deps.ttlMs),
          }),
        )
        .then(
          () => true,
          (error: unknown) => (isDuplicateKey(error) ? false : Promise.reject(error)),
        );
      if (inserted) return this.#finish({ _id, instance, owner }, reservedId, request.draft);

      const found = await this.#deps.call(() => records.findOne({ _id }));
      if (!found) continue; // expired and removed in between
      if (found.expiresAt <= now) {
        await this.#deps.call(() => records.deleteOne({ _id, owner: found.owner }));
        continue;
      }
      if (found.fingerprint !== request.fingerprint) return { outcome: 'key-reused' };
      // A record from before pets were their own record of the result.
      if (found.state === 'done' && found.pet) {
        return { outcome: 'replayed', pet: petJsonRecord(found.pet) };
      }
      const stored = await this.#deps.call(() =>
        pets.findOne({ idempotencyRecord: found.instance }),
      );
      if (stored) return { outcome: 'replayed', pet: petJsonRecord(stored) };
      if (found.leaseUntil > now) return { outcome: 'in-flight' };
      // The holder died or stalled: take over, keeping the pet id it reserved.
      const taken = await this.#deps.call(() =>
        records.updateOne(
          { _id, owner: found.owner, state: 'in-flight' },
          { $set: { owner, leaseUntil: new Date(now.getTime() + this.#deps.leaseMs) } },
        ),
      );
      if (taken.modifiedCount === 1) {
        const held = { _id, instance: found.instance, owner };
        return this.#finish(held, toNumber(found.petId), request.draft);
      }
    }
    throw new Error(`the idempotency record ${_id} kept changing`);
  }

  /**
   * Inserts the pet under the reserved id (or finds it inserted). The pet, tied to the record by
   * its `idempotencyRecord`, is the record of the result: a create writes two documents and
   * reads none, so it costs the same however many records are kept, on servers that find
   * nothing through an index too (FerretDB 1.x on SQLite scans for every filter).
   */
  async #finish(held: Held, reservedId: number, draft: PetDraft): Promise<IdempotentCreateResult> {
    const { _id, owner } = held;
    try {
      const pet = await this.#insertPet(held, reservedId, draft);
      return { outcome: 'created', pet };
    } catch (error) {
      if (error instanceof LeaseLostError) return { outcome: 'in-flight' };
      // Let a retry take over at once rather than after the lease (best effort: the
      // database may be what failed). The reserved id stays, so nothing is created twice.
      await this.#deps
        .call(() =>
          this.#deps.records.updateOne({ _id, owner }, { $set: { leaseUntil: new Date(0) } }),
        )
        .catch(() => {});
      throw error;
    }
  }

  async #insertPet(
    { _id, instance, owner }: Held,
    reservedId: number,
    draft: PetDraft,
  ): Promise<PetJson> {
    const { pets, records } = this.#deps;
    let id = reservedId;
    for (let collisions = 0; ; collisions++) {
      const doc = { ...toPetDocument(id, draft), idempotencyRecord: instance };
      try {
        await this.#deps.call(() => pets.insertOne(doc));
        return petJsonRecord(doc);
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
      // Either an earlier holder of this record inserted the pet (it crashed before recording
      // the result), or the id went to another pet (only where `$inc` is not atomic).
      const mine = await this.#deps.call(() => pets.findOne({ idempotencyRecord: instance }));
      if (mine) return petJsonRecord(mine);
      if (collisions >= MAX_ID_COLLISIONS) throw new Error(`no free pet id after ${collisions}`);
      id = await this.#deps.allocateId(true);
      const newId = id;
      // Recorded before the insert, so a takeover from here on uses the new id.
      const moved = await this.#deps.call(() =>
        records.updateOne({ _id, owner }, { $set: { petId: Long.fromNumber(newId) } }),
      );
      if (moved.modifiedCount !== 1) throw new LeaseLostError();
    }
  }

  /** Without a TTL index, deletes expired records now and then (never awaited). */
  #sweep(now: Date): void {
    if (this.#ttlIndex || now.getTime() - this.#lastSweep < SWEEP_INTERVAL_MS) return;
    this.#lastSweep = now.getTime();
    const { records } = this.#deps;
    this.#deps.call(() => records.deleteMany({ expiresAt: { $lte: now } })).catch(() => {});
  }
}
