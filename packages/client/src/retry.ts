/** How the client retries what is safe to retry. */
export interface RetryOptions {
  /** Attempts in all, the first one included; 1 never retries. Default 3. */
  attempts?: number;
  /** The longest wait before a retry; an answer asking for longer is thrown. Default 60 s. */
  maxDelayMs?: number;
  /** The base of the backoff: the n-th retry waits around `backoffMs` × 2^(n−1). Default 500 ms. */
  backoffMs?: number;
}

/**
 * The wait before the `retry`-th retry (1-based), with jitter so that clients failed by the same
 * outage do not retry in step. `base` is `backoffMs` × 2^(retry−1), at most `maxDelayMs`. Without
 * `Retry-After`: between half of `base` and `base`. With `Retry-After` (`retryAfterMs`): that
 * wait, plus up to half of `base`. `random` returns a number in [0, 1).
 */
export function retryDelay(
  retry: number,
  options: Required<RetryOptions>,
  retryAfterMs: number | undefined,
  random: () => number,
): number {
  const base = Math.min(options.backoffMs * 2 ** (retry - 1), options.maxDelayMs);
  const spread = (base / 2) * random();
  return Math.round(retryAfterMs === undefined ? base / 2 + spread : retryAfterMs + spread);
}

/** Resolves after `ms` milliseconds, or rejects when `signal` aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** `bytes` random bytes as hex (Web Crypto, in Node.js and every browser). */
function randomHex(bytes: number): string {
  const values = globalThis.crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(values, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** An `Idempotency-Key`: 16 random bytes as hex. */
export function newIdempotencyKey(): string {
  return randomHex(16);
}

/** An `X-Request-Id` for one call: 16 random bytes as hex, sent by each of its attempts. */
export function newRequestId(): string {
  return randomHex(16);
}
