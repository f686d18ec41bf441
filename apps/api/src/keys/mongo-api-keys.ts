import type { Collection, Db } from 'mongodb';
import type { Clock } from '../clock.js';
import { guarded } from '../store/mongo-errors.js';
import {
  type ApiKeyIdentity,
  type ApiKeyVerifier,
  digestKey,
  hasIssuedKeyShape,
  KeyLookupThrottledError,
} from './api-key.js';
import { type ApiKeyDocument, openApiKeyCollection } from './api-key-registry.js';
import { ExpiringCache } from './expiring-cache.js';
import { AUTH_FAILURE_LIMIT, AUTH_FAILURE_WINDOW_MS, LookupThrottle } from './lookup-throttle.js';

export interface MongoApiKeysOptions {
  /**
   * How long a valid key's lookup is reused before asking the database again: the longest a
   * revoked key keeps working on a running process. 0 asks on every request.
   */
  cacheMs?: number;
  /** The most digests remembered at once. */
  maxCached?: number;
  /** Lookups that may fail per client address per window (`AUTH_FAILURE_LIMIT`); 0: no limit. */
  failedLookupsPerAddress?: number;
  /** The window of `failedLookupsPerAddress` in milliseconds. */
  failedLookupWindowMs?: number;
  /** Milliseconds since the epoch; injected by tests. */
  now?: Clock;
}

/** Default `cacheMs`: a revoked key is refused by every process within 5 seconds. */
export const API_KEY_CACHE_MS = 5_000;
/**
 * How long a digest the database does not hold is remembered. Keys are 256 random bits made at
 * creation, so a digest presented before and unknown then can never become valid: only memory
 * bounds this, not correctness.
 */
const UNKNOWN_DIGEST_MS = 10 * 60_000;
const MAX_UNKNOWN_DIGESTS = 100_000;

/**
 * Keys from the `api_keys` collection, looked up by the SHA-256 digest of the presented token (an
 * index lookup on a hash reveals nothing about the key). A lookup the database cannot answer
 * rejects with `StoreUnavailableError` (503), never a 401.
 *
 * What a flood of made-up keys can cost is bounded: a token without the shape of an issued key
 * is refused without a query; a digest found unknown is remembered (bounded); and each client
 * address may make at most `failedLookupsPerAddress` lookups that fail per window, beyond which
 * a lookup of a digest never seen valid throws `KeyLookupThrottledError` (429). Digests seen
 * valid are always looked up again when their cache entry expires, so a valid client sharing an
 * address with the flood keeps working and a revocation still bites within `cacheMs`.
 */
export class MongoApiKeys implements ApiKeyVerifier {
  readonly #keys: Collection<ApiKeyDocument>;
  readonly #cache: ExpiringCache<string, ApiKeyIdentity>;
  readonly #unknown: ExpiringCache<string, true>;
  readonly #seenValid: ExpiringCache<string, true>;
  readonly #throttle: LookupThrottle;
  /** Lookups under way, so a burst of requests with one key costs one query. */
  readonly #pending = new Map<string, Promise<ApiKeyIdentity | undefined>>();

  constructor(keys: Collection<ApiKeyDocument>, options: MongoApiKeysOptions = {}) {
    this.#keys = keys;
    const maxEntries = options.maxCached ?? 10_000;
    this.#cache = new ExpiringCache({
      ttlMs: options.cacheMs ?? API_KEY_CACHE_MS,
      maxEntries,
      now: options.now,
    });
    this.#unknown = new ExpiringCache({
      ttlMs: UNKNOWN_DIGEST_MS,
      maxEntries: MAX_UNKNOWN_DIGESTS,
      now: options.now,
    });
    this.#seenValid = new ExpiringCache({ ttlMs: 24 * 3_600_000, maxEntries, now: options.now });
    this.#throttle = new LookupThrottle({
      limit: options.failedLookupsPerAddress ?? AUTH_FAILURE_LIMIT,
      windowMs: options.failedLookupWindowMs ?? AUTH_FAILURE_WINDOW_MS,
      now: options.now,
    });
  }

  /** Opens the collection (creating its indexes) and returns the verifier. */
  static async open(db: Db, options: MongoApiKeysOptions = {}): Promise<MongoApiKeys> {
    return new MongoApiKeys(await openApiKeyCollection(db), options);
  }

  async verify(token: string, client?: string): Promise<ApiKeyIdentity | undefined> {
    if (!hasIssuedKeyShape(token)) return undefined;
    const digest = digestKey(token);
    const cached = this.#cache.get(digest);
    if (cached) return cached.value;
    if (this.#unknown.get(digest)) return undefined;
    let pending = this.#pending.get(digest);
    if (pending === undefined) {
      const counted = client !== undefined && !this.#seenValid.get(digest);
      if (counted) {
        const grant = this.#throttle.take(client);
        if (!grant.ok) throw new KeyLookupThrottledError(grant.retryAfterSeconds);
      }
      pending = this.#lookUp(digest, counted ? client : undefined).finally(() =>
        this.#pending.delete(digest),
      );
      this.#pending.set(digest, pending);
    }
    return pending;
  }

  async #lookUp(digest: string, countedFor?: string): Promise<ApiKeyIdentity | undefined> {
    const doc = await guarded(() =>
      this.#keys.findOne({ digest }, { projection: { _id: 0, name: 1, revokedAt: 1 } }),
    );
    // Revocation is final: a revoked key is remembered like one never issued.
    if (doc === null || doc.revokedAt != null) {
      this.#unknown.set(digest, true);
      return undefined;
    }
    this.#seenValid.set(digest, true);
    if (countedFor !== undefined) this.#throttle.giveBack(countedFor);
    const identity = { id: digest, name: doc.name };
    this.#cache.set(digest, identity);
    return identity;
  }
}
