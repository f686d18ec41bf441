import { IDEMPOTENCY_KEY_TTL_MS } from '@animal-store/contract';
import {
  type Collection,
  type Db,
  type Filter,
  Long,
  type MongoClient,
  type MongoClientOptions,
} from 'mongodb';
import { type Clock, systemClock } from '../clock.js';
import { connectMongo } from './mongo-client.js';
import { type DatabaseCall, guarded, isDuplicateKey } from './mongo-errors.js';
import { type IdempotencyDocument, MongoIdempotency } from './mongo-idempotency.js';
import {
  type PetDocument,
  petJsonOf,
  petJsonRecord,
  toNumber,
  toPetDocument,
} from './mongo-pet-document.js';
import { MonitorWatch } from './monitor-watch.js';
import type {
  IdempotentCreate,
  IdempotentCreateResult,
  ListPetsOptions,
  PetDraft,
  PetJson,
  PetPageJson,
  PetStore,
} from './pet-store.js';
import { pageJson, StoreUnavailableError } from './pet-store.js';

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
  /** Passed to the driver (e.g. `monitorCommands` in tests), under what the URI sets. */
  clientOptions?: MongoClientOptions;
  /** Connect even when the URI weakens the write concern or read preference. */
  allowWeakConsistency?: boolean;
  /** Sees the driver's client before it connects (the pool metrics listen to its events). */
  beforeConnect?: (client: MongoClient) => void;
  /** Injected so tests can move time (idempotency keys expire, leases run out). */
  clock?: Clock;
  /**
   * How long a create with an `Idempotency-Key` holds its key before a retry may take over
   * (default 10 s). Taking over early is safe, only wasteful: the pet id is reserved.
   */
  idempotencyLeaseMs?: number;
  /** Told when the driver's server monitor stalled and the client reconnects, and how it went. */
  onReconnect?: (event: ReconnectEvent) => void;
}

/** What `onReconnect` hears. */
export type ReconnectEvent =
  | { kind: 'stalled'; servers: string[] }
  | { kind: 'reconnected' }
  | { kind: 'failed'; error: unknown };

/** How often the store looks for a stalled server monitor. */
const MONITOR_WATCH_MS = 1_000;

/** Retries of a create whose id turned out to be taken, before giving up. */
const MAX_ID_COLLISIONS = 20;

/**
 * The production store on the official driver. No transactions and no shared process state:
 * ids come from an atomic `$inc` on a counter document, so any number of API processes can
 * run against one replica set or sharded cluster.
 */
export class MongoPetStore implements PetStore {
  readonly #pets: Collection<PetDocument>;
  readonly #counters: Collection<CounterDocument>;
  readonly #idempotency: MongoIdempotency;
  readonly #blockSize: number;
  #next = 0;
  #end = 0;
  #reserving: Promise<void> | undefined;
  readonly #watch: MonitorWatch;
  readonly #onReconnect: ((event: ReconnectEvent) => void) | undefined;
  readonly #watchTimer: NodeJS.Timeout;
  /** Set while the client reconnects (closes, then connects again). */
  #reconnecting: Promise<void> | undefined;
  /** Set from a reconnect's start until one succeeds: a failed one is tried again. */
  #disconnected = false;
  #closed = false;

  private constructor(
    readonly client: MongoClient,
    readonly db: Db,
    options: MongoPetStoreOptions,
    watch: MonitorWatch,
  ) {
    this.#watch = watch;
    this.#onReconnect = options.onReconnect;
    this.#watchTimer = setInterval(() => this.#watchMonitor(), MONITOR_WATCH_MS);
    this.#watchTimer.unref();
    this.#pets = db.collection<PetDocument>('pets');
    this.#counters = db.collection<CounterDocument>('counters');
    this.#blockSize = options.idBlockSize ?? 64;
    this.#idempotency = new MongoIdempotency({
      pets: this.#pets,
      records: db.collection<IdempotencyDocument>('idempotency_keys'),
      allocateId: (collided) => {
        if (collided) this.#next = this.#end;
        return this.#allocateId();
      },
      now: options.clock ?? systemClock,
      call: this.call,
      leaseMs: options.idempotencyLeaseMs ?? 10_000,
      ttlMs: IDEMPOTENCY_KEY_TTL_MS,
    });
  }

  /** Connects, creates the indexes (idempotently) and returns the store. */
  static async connect(
    uri: string,
    dbName: string,
    options: MongoPetStoreOptions = {},
  ): Promise<MongoPetStore> {
    let watch: MonitorWatch | undefined;
    const client = await connectMongo(uri, options.clientOptions, {
      allowWeakConsistency: options.allowWeakConsistency,
      beforeConnect: (client) => {
        watch = new MonitorWatch(client.options);
        watch.observe(client);
        options.beforeConnect?.(client);
      },
    });
    const store = new MongoPetStore(client, client.db(dbName), options, watch as MonitorWatch);
    await guarded(() => store.#pets.createIndex({ status: 1, _id: 1 }, { name: 'status_id' }));
    await store.#idempotency.createIndexes();
    return store;
  }

  async create(draft: PetDraft): Promise<PetJson> {
    for (let attempt = 1; ; attempt++) {
      const id = await this.#allocateId();
      const doc = toPetDocument(id, draft);
      try {
        await this.call(() => this.#pets.insertOne(doc));
        return petJsonRecord(doc);
      } catch (error) {
        // MongoDB's $inc is atomic, so this never happens there. Servers that only emulate
        // it (FerretDB 1.x) can hand two processes one block: the unique _id catches it, and
        // we move on to a fresh block. Nothing is overwritten either way.
        if (!isDuplicateKey(error) || attempt >= MAX_ID_COLLISIONS) throw error;
        this.#next = this.#end;
      }
    }
  }

  createOnce(request: IdempotentCreate): Promise<IdempotentCreateResult> {
    return this.#idempotency.createOnce(request);
  }

  async getJson(id: number): Promise<string | undefined> {
    const doc = await this.call(() => this.#pets.findOne({ _id: Long.fromNumber(id) }));
    return doc ? petJsonOf(doc) : undefined;
  }

  async listJson(options: ListPetsOptions): Promise<PetPageJson> {
    const docs = await this.#page(options);
    const page = docs.slice(0, options.limit);
    const last = page.at(-1);
    return {
      json: pageJson(page.map(petJsonOf)),
      lastId: last && toNumber(last._id),
      hasMore: docs.length > options.limit,
    };
  }

  /** The page's documents, and one more if there is one: it tells whether another page exists. */
  #page({ limit, status, after }: ListPetsOptions): Promise<PetDocument[]> {
    const filter: Filter<PetDocument> = {};
    if (status !== undefined) filter.status = status;
    if (after !== undefined) filter._id = { $gt: Long.fromNumber(after) };
    return this.call(() =>
      this.#pets.find(filter, { sort: { _id: 1 }, limit: limit + 1 }).toArray(),
    );
  }

  async ping(): Promise<void> {
    await this.call(() => this.db.command({ ping: 1 }));
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#watchTimer);
    await this.#reconnecting;
    await this.client.close();
  }

  /**
   * Runs one call on the driver's client, its errors as the store's (`guarded`). While the store
   * replaces the client's connections (`#reconnect`), a call would meet a client that is closing,
   * so it fails as unavailable at once and sends nothing. Everything else on this client (the API
   * keys, the shared rate limit) calls through it too.
   */
  readonly call: DatabaseCall = (operation) => {
    if (this.#reconnecting) {
      return Promise.reject(new StoreUnavailableError('the database client is reconnecting'));
    }
    return guarded(operation);
  };

  /**
   * Replaces the driver's connections and monitors when a monitor stalled (`MonitorWatch`), and
   * tries again each round after a reconnect that failed. Calls meanwhile fail as unavailable.
   */
  #watchMonitor(): void {
    if (this.#closed || this.#reconnecting) return;
    const stalled = this.#watch.stalled();
    if (stalled.length === 0 && !this.#disconnected) return;
    if (stalled.length > 0) this.#onReconnect?.({ kind: 'stalled', servers: stalled });
    this.#reconnecting = this.#reconnect().finally(() => {
      this.#reconnecting = undefined;
    });
  }

  async #reconnect(): Promise<void> {
    this.#disconnected = true;
    try {
      await this.client.close();
      this.#watch.reset();
      if (this.#closed) return;
      await this.client.connect();
      this.#disconnected = false;
      this.#onReconnect?.({ kind: 'reconnected' });
    } catch (error) {
      this.#onReconnect?.({ kind: 'failed', error });
    }
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
    const counter = await this.call(() =>
      reserve().catch((error) => (isDuplicateKey(error) ? reserve() : Promise.reject(error))),
    );
    if (!counter) throw new Error('the id counter was not returned');
    const end = toNumber(counter.seq);
    this.#next = end - this.#blockSize + 1;
    this.#end = end + 1;
  }
}
