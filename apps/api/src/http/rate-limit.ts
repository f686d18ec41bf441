import type { Middleware, ParameterizedContext } from 'koa';
import { type Clock, systemClock } from '../clock.js';
import type { AppState } from './app-state.js';
import { RateLimitedError } from './errors.js';

/** How many requests one API key may make per window, in one process. */
export interface RateLimitSettings {
  requests: number;
  windowSeconds: number;
}

export const DEFAULT_RATE_LIMIT: Readonly<RateLimitSettings> = {
  requests: 6000,
  windowSeconds: 60,
};

/** Counts requests per key against a quota per window. */
export interface RateLimiter {
  /**
   * Spends one request of `key`'s quota: what is left after it (never more than is left), or -1
   * when none was left. A promise when the count must be asked for elsewhere (another process's
   * share: `ClusterRateLimiter`).
   */
  take(key: string): number | Promise<number>;
  /** Whole seconds, at least 1, from the last `take` until the window ends and quotas refill. */
  resetSeconds(): number;
}

/** `RateLimit-Policy` (draft-ietf-httpapi-ratelimit-headers §3): quota `q` per window `w` seconds. */
export function rateLimitPolicy(settings: RateLimitSettings): string {
  return `"default";q=${settings.requests};w=${settings.windowSeconds}`;
}

/** `RateLimit` (§4): `r` left (0 once over), `t` seconds until the quota refills. */
export function rateLimitField(remaining: number, resetSeconds: number): string {
  return `"default";r=${remaining < 0 ? 0 : remaining};t=${resetSeconds}`;
}

/**
 * Fixed windows aligned on the clock (every key's window ends at the same instant), counted per
 * key in one map. O(1) per request; the map is emptied when a window ends, so it only ever
 * holds the keys seen in the current window: idle keys cost nothing.
 *
 * A fixed window lets a client spend its quota at the end of one window and again at the start
 * of the next: up to twice the quota within one window's length, never more.
 */
export class FixedWindowRateLimiter implements RateLimiter {
  readonly #quota: number;
  readonly #windowMs: number;
  readonly #now: Clock;
  readonly #used = new Map<string, number>();
  #windowEnd = Number.NEGATIVE_INFINITY;
  #lastNow = 0;

  constructor(settings: RateLimitSettings, now: Clock = systemClock) {
    this.#quota = settings.requests;
    this.#windowMs = settings.windowSeconds * 1000;
    this.#now = now;
  }

  /** Spends one request of `key`'s quota: the quota left after it, or -1 when none was left. */
  take(key: string): number {
    const now = this.#now();
    this.#lastNow = now;
    if (now >= this.#windowEnd) {
      this.#used.clear();
      this.#windowEnd = (Math.floor(now / this.#windowMs) + 1) * this.#windowMs;
    }
    const used = (this.#used.get(key) ?? 0) + 1;
    if (used > this.#quota) return -1;
    this.#used.set(key, used);
    return this.#quota - used;
  }

  /** Whole seconds, at least 1, from the last `take` until the window ends and quotas refill. */
  resetSeconds(): number {
    return Math.max(1, Math.ceil((this.#windowEnd - this.#lastNow) / 1000));
  }

  /** Keys counted in the current window. */
  get trackedKeys(): number {
    return this.#used.size;
  }
}

/**
 * The rate limit as HTTP sees it. After authentication every response carries the two fields of
 * draft-ietf-httpapi-ratelimit-headers-10 (structured-field Items, RFC 9651): §3
 * `RateLimit-Policy: "default";q=6000;w=60` (quota `q` per window `w` seconds) and §4
 * `RateLimit: "default";r=5999;t=42` (`r` left, `t` seconds until the quota refills). A request
 * over the quota is a `429 rate_limited` whose `Retry-After` is `t`: never earlier than the
 * reset (§6).
 */
export class RateLimit {
  readonly #limiter: RateLimiter;
  readonly #policy: string;
  readonly #onRejected: (() => void) | undefined;

  constructor(settings: RateLimitSettings, limiter: RateLimiter, onRejected?: () => void) {
    this.#limiter = limiter;
    this.#policy = rateLimitPolicy(settings);
    this.#onRejected = onRejected;
  }

  /**
   * The middleware, after `requireApiKey`: counts the request against its API key's quota and
   * throws `RateLimitedError` beyond it. It waits only when the limiter must ask for its share.
   */
  middleware(): Middleware<AppState> {
    return async (ctx, next) => {
      const taken = this.#limiter.take(ctx.state.apiKeyId ?? '');
      this.#answer(ctx, typeof taken === 'number' ? taken : await taken);
      await next();
    };
  }

  #answer(ctx: ParameterizedContext<AppState>, remaining: number): void {
    const reset = this.#limiter.resetSeconds();
    ctx.set('RateLimit-Policy', this.#policy);
    ctx.set('RateLimit', rateLimitField(remaining, reset));
    if (remaining < 0) {
      this.#onRejected?.();
      throw new RateLimitedError({ retryAfterSeconds: reset });
    }
  }
}
