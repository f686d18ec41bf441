import { StoreUnavailableError } from './pet-store.js';

/**
 * Deadlines for store calls without a timer per call: calls that start within the same slice of
 * time (a tenth of the limit) share one promise, rejected with `StoreUnavailableError` (kind
 * `timeout`) one limit after the slice ends. A call therefore ends between `limitMs` and
 * `limitMs` plus a tenth after it started, and the process runs at most ten such timers per limit,
 * however many requests it serves.
 */
export class StoreDeadline {
  readonly #limitMs: number;
  readonly #sliceMs: number;
  #sliceEnd = Number.NEGATIVE_INFINITY;
  #expiry: Promise<never> = Promise.reject();

  constructor(limitMs: number) {
    this.#limitMs = limitMs;
    this.#sliceMs = Math.max(1, Math.ceil(limitMs / 10));
    this.#expiry.catch(() => {});
  }

  /** The promise that rejects once a call started at `now` (`performance.now()`) is out of time. */
  expiryFor(now: number): Promise<never> {
    if (now >= this.#sliceEnd) {
      this.#sliceEnd = now + this.#sliceMs;
      const ms = this.#sliceMs + this.#limitMs;
      this.#expiry = new Promise<never>((_, reject) => {
        setTimeout(
          () =>
            reject(
              new StoreUnavailableError(
                `the database did not answer within STORE_TIMEOUT_MS (${this.#limitMs} ms)`,
                { kind: 'timeout' },
              ),
            ),
          ms,
        ).unref();
      });
      // Rejected whether or not a call still waits on it: that is no unhandled rejection.
      this.#expiry.catch(() => {});
    }
    return this.#expiry;
  }
}
