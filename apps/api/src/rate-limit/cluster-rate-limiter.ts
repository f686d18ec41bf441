import type { Collection, Db } from 'mongodb';
import { type Clock, systemClock } from '../clock.js';
import {
  FixedWindowRateLimiter,
  type RateLimiter,
  type RateLimitSettings,
} from '../http/rate-limit.js';
import { type DatabaseCall, guarded, isDuplicateKey } from '../store/mongo-errors.js';

/**
 * One lease of a key's quota in one window: slot `n` stands for requests `n·lease + 1` to
 * `(n + 1)·lease` of the quota. Its `_id` makes it unique: whoever inserts it holds it.
 */
interface LeaseDocument {
  /** `<window>:<key>:<slot>` */
  _id: string;
  key: string;
  /** Window number: epoch milliseconds divided by the window length. */
  window: number;
  /** When the document may go (TTL index): the end of the window after its own. */
  expiresAt: Date;
}

/** What this process holds of one key's quota in the current window. */
interface Holding {
  /** Requests this process may still answer without asking the database. */
  held: number;
  /** The database has no more quota for the key in this window. */
  exhausted: boolean;
  /** The lease being taken, shared by every request that waits for it. */
  pending?: Promise<void>;
  /** The first slot this process has not seen taken. */
  nextSlot: number;
}

export interface ClusterRateLimiterOptions {
  /** Requests per lease; default: a fiftieth of the quota, 1 to 100. */
  lease?: number;
  /** Epoch milliseconds; injected by tests. */
  now?: Clock;
  /** Called when the database cannot be reached and the process counts alone until the window ends. */
  onFallback?: (error: unknown, untilMs: number) => void;
  /** Called after each lease round-trip. */
  onLease?: () => void;
  /** Runs each call on the collection: the store's `call`, on the store's client (`guarded`). */
  call?: DatabaseCall;
}

/** The lease size used when none is given: small against the quota, never above 100. */
export function defaultLease(quota: number): number {
  return Math.max(1, Math.min(100, Math.ceil(quota / 50)));
}

const isNotImplemented = (error: unknown) =>
  (error as { codeName?: string } | null)?.codeName === 'NotImplemented' ||
  /not implemented/i.test(String((error as Error | null)?.message));

/**
 * A key's quota shared by every process on one database. A window's quota is cut into leases
 * (slots of `lease` requests); a process takes the next free slot by inserting its document,
 * one round-trip, and spends it locally, so most requests never wait for the database. A slot's
 * `_id` is unique, so each is held by one process: across any number of processes a key is
 * never granted more than its quota in a window. (An `$inc` of one counter per window would do
 * on MongoDB; FerretDB, the test database, loses concurrent increments, and a unique insert is
 * atomic on both.)
 *
 * `take` answers with what this process holds after the request: a count it can spend for sure,
 * never more than is left in the cluster. It takes the next lease before spending its last
 * request, so `0` means the whole quota is gone. When the database cannot be reached, the
 * process counts alone (`FixedWindowRateLimiter`) until the window ends, and says so.
 */
export class ClusterRateLimiter implements RateLimiter {
  readonly #leases: Collection<LeaseDocument>;
  readonly #quota: number;
  readonly #windowMs: number;
  readonly #lease: number;
  readonly #now: Clock;
  readonly #options: ClusterRateLimiterOptions;
  readonly #fallback: FixedWindowRateLimiter;
  readonly #call: DatabaseCall;
  #holdings = new Map<string, Holding>();
  #window = Number.NEGATIVE_INFINITY;
  #lastNow = 0;
  #fallbackUntil = Number.NEGATIVE_INFINITY;

  constructor(
    leases: Collection<LeaseDocument>,
    settings: RateLimitSettings,
    options: ClusterRateLimiterOptions = {},
  ) {
    this.#leases = leases;
    this.#quota = settings.requests;
    this.#windowMs = settings.windowSeconds * 1000;
    this.#lease = options.lease ?? defaultLease(settings.requests);
    this.#now = options.now ?? systemClock;
    this.#options = options;
    this.#fallback = new FixedWindowRateLimiter(settings, this.#now);
    this.#call = options.call ?? guarded;
  }

  /**
   * Opens the `rate_limits` collection, with a TTL index that drops past windows. A server
   * without TTL indexes (FerretDB 1.x) does without: each process deletes past windows when a
   * new one starts.
   */
  static async open(
    db: Db,
    settings: RateLimitSettings,
    options: ClusterRateLimiterOptions = {},
  ): Promise<ClusterRateLimiter> {
    const leases = db.collection<LeaseDocument>('rate_limits');
    const limiter = new ClusterRateLimiter(leases, settings, options);
    await limiter.#call(() =>
      leases
        .createIndex({ expiresAt: 1 }, { expireAfterSeconds: 0, name: 'expiresAt_ttl' })
        .catch((error: unknown) => {
          if (!isNotImplemented(error)) throw error;
          return '';
        }),
    );
    return limiter;
  }

  get lease(): number {
    return this.#lease;
  }

  take(key: string): number | Promise<number> {
    const now = this.#now();
    this.#lastNow = now;
    const window = Math.floor(now / this.#windowMs);
    if (window !== this.#window) this.#rollOver(window);
    if (now < this.#fallbackUntil) return this.#fallback.take(key);
    let holding = this.#holdings.get(key);
    if (holding === undefined) {
      holding = { held: 0, exhausted: false, nextSlot: 0 };
      this.#holdings.set(key, holding);
    }
    if (holding.held > 1 || (holding.held === 1 && holding.exhausted)) {
      holding.held -= 1;
      return holding.held;
    }
    if (holding.exhausted) return -1;
    return this.#takeAfterLease(key, holding, window);
  }

  resetSeconds(): number {
    const end = (Math.floor(this.#lastNow / this.#windowMs) + 1) * this.#windowMs;
    return Math.max(1, Math.ceil((end - this.#lastNow) / 1000));
  }

  async #takeAfterLease(key: string, holding: Holding, window: number): Promise<number> {
    holding.pending ??= this.#takeLease(key, holding, window).finally(() => {
      holding.pending = undefined;
    });
    try {
      await holding.pending;
    } catch (error) {
      const until = (window + 1) * this.#windowMs;
      if (this.#fallbackUntil < until) {
        this.#fallbackUntil = until;
        this.#options.onFallback?.(error, until);
      }
    }
    return this.take(key);
  }

  async #takeLease(key: string, holding: Holding, window: number): Promise<void> {
    const lease = this.#lease;
    const slots = Math.ceil(this.#quota / lease);
    let got = 0;
    for (let slot = holding.nextSlot; slot < slots; slot++) {
      const taken = await this.#call(() =>
        this.#leases
          .insertOne({
            _id: `${window}:${key}:${slot}`,
            key,
            window,
            expiresAt: new Date((window + 2) * this.#windowMs),
          })
          .then(
            () => true,
            (error: unknown) => {
              if (isDuplicateKey(error)) return false;
              throw error;
            },
          ),
      );
      this.#options.onLease?.();
      holding.nextSlot = slot + 1;
      if (taken) {
        got = Math.min(lease, this.#quota - slot * lease);
        break;
      }
    }
    if (this.#holdings.get(key) !== holding) return;
    holding.held += got;
    if (got === 0 || holding.nextSlot >= slots) holding.exhausted = true;
  }

  /** A new window: forget what was held, and drop past counters where TTL indexes do not. */
  #rollOver(window: number): void {
    this.#window = window;
    this.#holdings = new Map();
    const leases = this.#leases;
    this.#call(() => leases.deleteMany({ window: { $lt: window - 1 } })).catch(() => {});
  }
}
