import type { PetStatus } from '@animal-store/contract';
import {
  type Collection,
  type Db,
  type Filter,
  Long,
  MongoClient,
  type MongoClientOptions,
} from 'mongodb';
import { guarded, isDuplicateKey } from './mongo-errors.js';
import type { ListPetsOptions, PetDraft, PetPage, PetStore, StoredPet } from './pet-store.js';

/** A pet document: keyed by its numeric id; integers stored as int64. */
interface PetDocument {
  _id: number | Long;
  name: string;
  categoryId: number | Long;
  status: PetStatus;
}

interface CounterDocument {
  _id: string;
  seq: number | Long;
}

export interface MongoPetStoreOptions {
  /**
   * Ids reserved per counter round-trip. A block is never reused, so several API processes
   * share one counter safely; an unused rest of a block is a gap in the ids, nothing more.
   */
  idBlockSize?: number;
  /** Passed to the driver (e.g. `monitorCommands` in tests). */
  clientOptions?: MongoClientOptions;
}

/** Retries of a create whose id turned out to be taken, before giving up. */
const MAX_ID_COLLISIONS = 20;

const toNumber = (value: number | Long): number =>
  typeof value === 'number' ? value : value.toNumber();

function toPet(doc: PetDocument): StoredPet {
  return {
    id: toNumber(doc._id),
    name: doc.name,
    categoryId: toNumber(doc.categoryId),
    status: doc.status,
  };
}

/**
 * The production store on the official driver. No transactions and no shared process state:
 * ids come from an atomic `$inc` on a counter document, so any number of API processes can
 * run against one replica set or sharded cluster.
 */
export class MongoPetStore implements PetStore {
  readonly #pets: Collection<PetDocument>;
  readonly #counters: Collection<CounterDocument>;
  readonly #blockSize: number;
  #next = 0;
  #end = 0;
  #reserving: Promise<void> | undefined;

  private constructor(
    readonly client: MongoClient,
    readonly db: Db,
    options: MongoPetStoreOptions,
  ) {
    this.#pets = db.collection<PetDocument>('pets');
    this.#counters = db.collection<CounterDocument>('counters');
    this.#blockSize = options.idBlockSize ?? 64;
  }

  /** Connects, creates the indexes (idempotently) and returns the store. */
  static async connect(
    uri: string,
    dbName: string,
    options: MongoPetStoreOptions = {},
  ): Promise<MongoPetStore> {
    const client = new MongoClient(uri, {
      // Fail fast while the database is down: the API answers 503 instead of hanging.
      serverSelectionTimeoutMS: 2_000,
      connectTimeoutMS: 2_000,
      appName: 'animal-store-api',
      ...options.clientOptions,
    });
    await guarded(() => client.connect());
    const store = new MongoPetStore(client, client.db(dbName), options);
    await guarded(() => store.#pets.createIndex({ status: 1, _id: 1 }, { name: 'status_id' }));
    return store;
  }

  async create(draft: PetDraft): Promise<StoredPet> {
    for (let attempt = 1; ; attempt++) {
      const id = await this.#allocateId();
      const doc: PetDocument = {
        _id: Long.fromNumber(id),
        name: draft.name,
        categoryId: Long.fromNumber(draft.categoryId),
        status: draft.status,
      };
      try {
        await guarded(() => this.#pets.insertOne(doc));
        return toPet(doc);
      } catch (error) {
        // MongoDB's $inc is atomic, so this never happens there. Servers that only emulate
        // it (FerretDB 1.x) can hand two processes one block: the unique _id catches it, and
        // we move on to a fresh block. Nothing is overwritten either way.
        if (!isDuplicateKey(error) || attempt >= MAX_ID_COLLISIONS) throw error;
        this.#next = this.#end;
      }
    }
  }

  async get(id: number): Promise<StoredPet | undefined> {
    const doc = await guarded(() => this.#pets.findOne({ _id: Long.fromNumber(id) }));
    return doc ? toPet(doc) : undefined;
  }

  async list({ limit, status, after }: ListPetsOptions): Promise<PetPage> {
    const filter: Filter<PetDocument> = {};
    if (status !== undefined) filter.status = status;
    if (after !== undefined) filter._id = { $gt: Long.fromNumber(after) };
    // One extra document tells whether another page exists.
    const docs = await guarded(() =>
      this.#pets.find(filter, { sort: { _id: 1 }, limit: limit + 1 }).toArray(),
    );
    return { pets: docs.slice(0, limit).map(toPet), hasMore: docs.length > limit };
  }

  async ping(): Promise<void> {
    await guarded(() => this.db.command({ ping: 1 }));
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  async #allocateId(): Promise<number> {
    while (this.#next >= this.#end) {
      // Concurrent creates wait for one reservation instead of each making their own.
      this.#reserving ??= this.#reserveBlock().finally(() => {
        this.#reserving = undefined;
      });
      await this.#reserving;
    }
    return this.#next++;
  }

  async #reserveBlock(): Promise<void> {
    const reserve = () =>
      this.#counters.findOneAndUpdate(
        { _id: 'pets' },
        { $inc: { seq: Long.fromNumber(this.#blockSize) } },
        { upsert: true, returnDocument: 'after' },
      );
    // Two processes creating the counter at once: one upsert loses on the unique _id and
    // must simply try again, now as an update.
    const counter = await guarded(() =>
      reserve().catch((error) => (isDuplicateKey(error) ? reserve() : Promise.reject(error))),
    );
    if (!counter) throw new Error('the id counter was not returned');
    const end = toNumber(counter.seq);
    this.#next = end - this.#blockSize + 1;
    this.#end = end + 1;
  }
}
