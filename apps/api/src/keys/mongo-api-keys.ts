import type { Collection, Db } from 'mongodb';
import { guarded } from '../store/mongo-errors.js';
import { type ApiKeyIdentity, type ApiKeyVerifier, digestKey } from './api-key.js';
import { type ApiKeyDocument, openApiKeyCollection } from './api-key-registry.js';
import { ExpiringCache } from './expiring-cache.js';

export interface MongoApiKeysOptions {
  /**
   * How long an answer (valid, unknown or revoked) is reused before asking the database again:
   * the longest a revoked key keeps working on a running process. 0 asks on every request.
   */
  cacheMs?: number;
  /** The most digests remembered at once (unknown tokens included, so guessing cannot grow it). */
  maxCached?: number;
  /** Milliseconds since the epoch; injected by tests. */
  now?: () => number;
}

/** Default `cacheMs`: a revoked key is refused by every process within 5 seconds. */
export const API_KEY_CACHE_MS = 5_000;

/**
 * Keys from the `api_keys` collection, looked up by the SHA-256 digest of the presented token (an
 * index lookup on a hash reveals nothing about the key). Answers are cached briefly; a lookup the
 * database cannot answer rejects with `StoreUnavailableError` (503), never a 401.
 */
export class MongoApiKeys implements ApiKeyVerifier {
  readonly #keys: Collection<ApiKeyDocument>;
  readonly #cache: ExpiringCache<string, ApiKeyIdentity | undefined>;
  /** Lookups under way, so a burst of requests with one key costs one query. */
  readonly #pending = new Map<string, Promise<ApiKeyIdentity | undefined>>();

  constructor(keys: Collection<ApiKeyDocument>, options: MongoApiKeysOptions = {}) {
    this.#keys = keys;
    this.#cache = new ExpiringCache({
      ttlMs: options.cacheMs ?? API_KEY_CACHE_MS,
      maxEntries: options.maxCached ?? 10_000,
      now: options.now,
    });
  }

  /** Opens the collection (creating its indexes) and returns the verifier. */
  static async open(db: Db, options: MongoApiKeysOptions = {}): Promise<MongoApiKeys> {
    return new MongoApiKeys(await openApiKeyCollection(db), options);
  }

  async verify(token: string): Promise<ApiKeyIdentity | undefined> {
    const digest = digestKey(token).toString('hex');
    const cached = this.#cache.get(digest);
    if (cached) return cached.value;
    let pending = this.#pending.get(digest);
    if (pending === undefined) {
      pending = this.#lookUp(digest).finally(() => this.#pending.delete(digest));
      this.#pending.set(digest, pending);
    }
    return pending;
  }

  async #lookUp(digest: string): Promise<ApiKeyIdentity | undefined> {
    const doc = await guarded(() =>
      this.#keys.findOne({ digest }, { projection: { _id: 0, name: 1, revokedAt: 1 } }),
    );
    const identity = doc && doc.revokedAt == null ? { name: doc.name } : undefined;
    this.#cache.set(digest, identity);
    return identity;
  }
}
