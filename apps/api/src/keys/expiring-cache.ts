import { type Clock, systemClock } from '../clock.js';
export interface ExpiringCacheOptions {
  /** How long an entry is served after it was set; 0 turns the cache off. */
  ttlMs: number;
  /** The most entries kept; when full, the oldest goes first. */
  maxEntries: number;
  /** Milliseconds since the epoch; injected by tests. */
  now?: Clock;
}

/**
 * A small bounded cache whose entries expire `ttlMs` after they were set. It can hold
 * `undefined` (a remembered "no"): `get` wraps what it found, so a miss is told apart.
 */
export class ExpiringCache<K, V> {
  readonly #entries = new Map<K, { value: V; expiresAt: number }>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: Clock;

  constructor(options: ExpiringCacheOptions) {
    this.#ttlMs = options.ttlMs;
    this.#maxEntries = options.maxEntries;
    this.#now = options.now ?? systemClock;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: K): { value: V } | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return { value: entry.value };
  }

  set(key: K, value: V): void {
    if (this.#ttlMs <= 0 || this.#maxEntries <= 0) return;
    // Deleting first moves a refreshed key to the young end of the insertion order.
    this.#entries.delete(key);
    while (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, { value, expiresAt: this.#now() + this.#ttlMs });
  }
}
