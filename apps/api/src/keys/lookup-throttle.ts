import { type Clock, systemClock } from '../clock.js';
import { ExpiringCache } from './expiring-cache.js';
/** Defaults of the per-address limit on failed key lookups (`AUTH_FAILURE_*`). */
export const AUTH_FAILURE_LIMIT = 30;
export const AUTH_FAILURE_WINDOW_MS = 60_000;

export interface LookupThrottleOptions {
  /** Key lookups that may fail per client address per window; 0 turns the throttle off. */
  limit: number;
  windowMs: number;
  /** The most addresses tracked at once; when full, the oldest window goes first. */
  maxAddresses?: number;
  /** Milliseconds since the epoch; injected by tests. */
  now?: Clock;
}

/** The outcome of asking for a lookup: allowed, or refused for `retryAfterSeconds`. */
export type LookupGrant = { ok: true } | { ok: false; retryAfterSeconds: number };

const GRANTED: LookupGrant = { ok: true };

/**
 * Counts, per client address and fixed window, the key lookups that may fail: each lookup of a
 * digest not known to be valid takes one when it starts (so a burst cannot outrun the count) and
 * gives it back when the key turns out valid. Past the limit an address gets no lookup until its
 * window ends: a flood of made-up keys costs the database `limit` queries per window, not one
 * per request.
 */
export class LookupThrottle {
  /** Each address's window: entries expire with it, and the oldest go first when full. */
  readonly #windows: ExpiringCache<string, { used: number; endsAt: number }>;
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #now: Clock;

  constructor(options: LookupThrottleOptions) {
    this.#limit = options.limit;
    this.#windowMs = options.windowMs;
    this.#now = options.now ?? systemClock;
    this.#windows = new ExpiringCache({
      ttlMs: options.windowMs,
      maxEntries: options.maxAddresses ?? 100_000,
      now: this.#now,
    });
  }

  take(address: string): LookupGrant {
    if (this.#limit <= 0) return GRANTED;
    const now = this.#now();
    let window = this.#windows.get(address)?.value;
    if (window === undefined) {
      window = { used: 0, endsAt: now + this.#windowMs };
      this.#windows.set(address, window);
    }
    if (window.used >= this.#limit) {
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((window.endsAt - now) / 1000)) };
    }
    window.used += 1;
    return GRANTED;
  }

  /** Gives back what `take` counted: the lookup found a valid key. */
  giveBack(address: string): void {
    const window = this.#windows.get(address)?.value;
    if (window !== undefined && window.used > 0) window.used -= 1;
  }
}
