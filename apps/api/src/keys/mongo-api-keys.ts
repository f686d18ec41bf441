import type { Collection, Db } from 'mongodb';
import { type Clock, systemClock } from '../clock.js';
import { type DatabaseCall, guarded } from '../store/mongo-errors.js';
import {
  type ApiKeyIdentity,
  type ApiKeyVerdict,
  type ApiKeyVerifier,
  digestKey,
  hasIssuedKeyShape,
} from './api-key.js';
import { type ApiKeyDocument, openApiKeyCollection } from './api-key-registry.js';

export interface MongoApiKeysOptions {
  /**
   * How old the process's copy of the `api_keys` collection may be when it answers: the longest
   * a new key waits before it works and a revoked key keeps working. 0 reloads the copy for every
   * request that finds no reload under way.
   */
  cacheMs?: number;
  /** Milliseconds since the epoch; injected by tests. */
  now?: Clock;
  /** Runs each read of the collection: the store's `call`, on the store's client (`guarded`). */
  call?: DatabaseCall;
}

/** Default `cacheMs`: a new or revoked key takes effect on every process within 5 seconds. */
export const API_KEY_CACHE_MS = 5_000;

/**
 * Keys from the `api_keys` collection. Each process holds every key's digest in memory (the
 * collection holds few keys: one per client, not per request) and reloads them all once its copy
 * is older than `cacheMs`, in the background once it is half that age so requests seldom wait.
 * A presented key is answered from that copy: an unknown key costs no database lookup, so a flood
 * of made-up keys costs the database nothing and nothing needs throttling, and a valid key is
 * never refused because of what other callers sent. A reload the database cannot answer, when the
 * copy is too old to answer from, rejects with `StoreUnavailableError` (503), never a 401.
 */
export class MongoApiKeys implements ApiKeyVerifier {
  readonly #keys: Collection<ApiKeyDocument>;
  readonly #cacheMs: number;
  readonly #now: Clock;
  readonly #call: DatabaseCall;
  /** Each digest's identity, or `revoked`. */
  #verdicts = new Map<string, ApiKeyIdentity | 'revoked'>();
  /** When the load the copy comes from started. */
  #loadedAt = Number.NEGATIVE_INFINITY;
  /** The reload under way: concurrent requests share it. */
  #loading: Promise<void> | undefined;

  constructor(keys: Collection<ApiKeyDocument>, options: MongoApiKeysOptions = {}) {
    this.#keys = keys;
    this.#cacheMs = options.cacheMs ?? API_KEY_CACHE_MS;
    this.#now = options.now ?? systemClock;
    this.#call = options.call ?? guarded;
  }

  /** Opens the collection (creating its indexes), loads the keys and returns the verifier. */
  static async open(db: Db, options: MongoApiKeysOptions = {}): Promise<MongoApiKeys> {
    const keys = new MongoApiKeys(await openApiKeyCollection(db), options);
    await keys.#reload();
    return keys;
  }

  /** Keys in the copy, revoked ones included. */
  get size(): number {
    return this.#verdicts.size;
  }

  async verify(token: string): Promise<ApiKeyVerdict> {
    // A token that was never issued is refused without even a digest.
    if (!hasIssuedKeyShape(token)) return undefined;
    const age = this.#now() - this.#loadedAt;
    if (age > this.#cacheMs) await this.#reload();
    else if (age > this.#cacheMs / 2) this.#reload().catch(() => {});
    return this.#verdicts.get(digestKey(token));
  }

  #reload(): Promise<void> {
    this.#loading ??= this.#load().finally(() => {
      this.#loading = undefined;
    });
    return this.#loading;
  }

  async #load(): Promise<void> {
    const startedAt = this.#now();
    const docs = await this.#call(() =>
      this.#keys.find({}, { projection: { _id: 0, digest: 1, name: 1, revokedAt: 1 } }).toArray(),
    );
    const verdicts = new Map<string, ApiKeyIdentity | 'revoked'>();
    for (const { digest, name, revokedAt } of docs) {
      verdicts.set(digest, revokedAt == null ? Object.freeze({ id: digest, name }) : 'revoked');
    }
    this.#verdicts = verdicts;
    this.#loadedAt = startedAt;
  }
}
