/** How the client retries what is safe to retry. */
export interface RetryOptions {
  /** Attempts in all, the first one included; 1 never retries. Default 3. */
  attempts?: number;
  /** The longest wait before a retry; an answer asking for longer is thrown. Default 60 s. */
  maxDelayMs?: number;
  /** The wait after a network error, or an answer without `Retry-After`; doubles each time. Default 500 ms. */
  backoffMs?: number;
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

/** Whether `error` is the caller's abort rather than a failure of the network. */
export function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return (
    signal?.aborted === true ||
    (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'))
  );
}

/** 16 random bytes as hex: an `Idempotency-Key` (Web Crypto, in Node.js and every browser). */
export function newIdempotencyKey(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
