import type { Counter, Histogram } from 'prom-client';
import { withDeadline } from '../deadline.js';
import {
  type IdempotentOutcome,
  STORE_OPERATIONS,
  type StoreErrorKind,
  type StoreOperation,
} from '../metrics/api-metrics.js';
import {
  type IdempotentCreate,
  type IdempotentCreateResult,
  type ListPetsOptions,
  type PetDraft,
  type PetJson,
  type PetPageJson,
  type PetStore,
  StoreUnavailableError,
} from './pet-store.js';

type Outcome = 'ok' | 'error';

/** A duration histogram's series for one operation and outcome. */
type DurationSeries = Histogram.Internal<'operation' | 'outcome'>;

/** What a store error was, for `pet_store_errors_total`. */
export function storeErrorKind(error: unknown): StoreErrorKind {
  return error instanceof StoreUnavailableError ? error.kind : 'other';
}

/** The error of a store call that took `timeoutMs`. */
const storeTimeout = (timeoutMs: number) =>
  new StoreUnavailableError(
    `the database did not answer within STORE_TIMEOUT_MS (${timeoutMs} ms)`,
    { kind: 'timeout' },
  );

/**
 * Store calls that may wait on the database at once (`STORE_MAX_IN_FLIGHT`): above the driver's
 * default pool of 100 connections, so a busy but healthy database only queues a little for a
 * connection; a slow one fills it, and what comes next is answered `503` at once instead of
 * queueing until the driver's time limit.
 */
export const DEFAULT_STORE_MAX_IN_FLIGHT = 256;

/**
 * With MongoDB, the longest a store call may take (`STORE_TIMEOUT_MS`): well inside the shipped
 * balancers' 35 s server timeout, so a slow database is answered with the API's own `503`.
 */
export const DEFAULT_STORE_TIMEOUT_MS = 5_000;

/** How long store calls may take and how many may wait at once. */
export interface StoreLimits {
  /** Calls waiting on the store at once; more fail at once (default `DEFAULT_STORE_MAX_IN_FLIGHT`). */
  maxInFlight?: number;
  /** The longest a call may take before it fails as a `timeout`; unbounded when absent. */
  timeoutMs?: number;
}

/** The metrics an `InstrumentedPetStore` records (`ApiMetrics` holds them). */
export interface StoreMetrics {
  /** Time each operation takes, by operation and outcome (`ok` or `error`). */
  readonly storeDuration: Histogram<'operation' | 'outcome'>;
  /** Failed operations, by operation and `storeErrorKind`. */
  readonly storeErrors: Counter<'operation' | 'kind'>;
  /** `createOnce` results, by outcome. */
  readonly idempotentCreates: Counter<'outcome'>;
}

/**
 * A `PetStore` that times every operation of the store it wraps, counts its failures by kind
 * and what each idempotent create came to, and bounds the waits: a call fails with
 * `StoreUnavailableError` (kind `timeout`) once it has taken `timeoutMs`, and at once while
 * `maxInFlight` calls are already waiting, so a slow database never holds more requests than that
 * (`ping`, the readiness check, is never refused). Otherwise it behaves exactly like the inner store.
 */
export class InstrumentedPetStore implements PetStore {
  readonly #inner: PetStore;
  readonly #metrics: StoreMetrics;
  /** Each operation's duration series by outcome, bound once: a call names no labels. */
  readonly #durations: Readonly<Record<StoreOperation, Record<Outcome, DurationSeries>>>;
  readonly #maxInFlight: number;
  readonly #timeoutMs: number | undefined;
  /** Calls started and not yet answered: one increment and one decrement a call. */
  #inFlight = 0;

  constructor(inner: PetStore, metrics: StoreMetrics, limits: StoreLimits = {}) {
    this.#inner = inner;
    this.#metrics = metrics;
    const series = (operation: StoreOperation) => ({
      ok: metrics.storeDuration.labels({ operation, outcome: 'ok' }),
      error: metrics.storeDuration.labels({ operation, outcome: 'error' }),
    });
    this.#durations = Object.fromEntries(
      STORE_OPERATIONS.map((operation) => [operation, series(operation)]),
    ) as Record<StoreOperation, Record<Outcome, DurationSeries>>;
    this.#maxInFlight = limits.maxInFlight ?? DEFAULT_STORE_MAX_IN_FLIGHT;
    this.#timeoutMs = limits.timeoutMs;
  }

  /** Store calls under way now. */
  get inFlight(): number {
    return this.#inFlight;
  }

  create(draft: PetDraft): Promise<PetJson> {
    if (this.#inFlight >= this.#maxInFlight) return this.#shed('create');
    return this.#timed('create', performance.now(), this.#inner.create(draft));
  }

  async createOnce(request: IdempotentCreate): Promise<IdempotentCreateResult> {
    if (this.#inFlight >= this.#maxInFlight) return this.#shed('createOnce');
    const result = await this.#timed(
      'createOnce',
      performance.now(),
      this.#inner.createOnce(request),
    );
    this.#metrics.idempotentCreates.inc({ outcome: result.outcome satisfies IdempotentOutcome });
    return result;
  }

  getJson(id: number): Promise<string | undefined> {
    if (this.#inFlight >= this.#maxInFlight) return this.#shed('get');
    return this.#timed('get', performance.now(), this.#inner.getJson(id));
  }

  listJson(options: ListPetsOptions): Promise<PetPageJson> {
    if (this.#inFlight >= this.#maxInFlight) return this.#shed('list');
    return this.#timed('list', performance.now(), this.#inner.listJson(options));
  }

  ping(): Promise<void> {
    return this.#timed('ping', performance.now(), this.#inner.ping());
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  #shed(operation: StoreOperation): Promise<never> {
    this.#metrics.storeErrors.inc({ operation, kind: 'timeout' });
    return Promise.reject(
      new StoreUnavailableError(
        `the database is too slow: ${this.#maxInFlight} store calls are waiting on it (STORE_MAX_IN_FLIGHT)`,
        { kind: 'timeout' },
      ),
    );
  }

  async #timed<T>(operation: StoreOperation, started: number, result: Promise<T>): Promise<T> {
    let outcome: Outcome = 'error';
    this.#inFlight++;
    try {
      const timeoutMs = this.#timeoutMs;
      const value = await (timeoutMs === undefined
        ? result
        : withDeadline(result, timeoutMs, () => storeTimeout(timeoutMs)));
      outcome = 'ok';
      return value;
    } catch (error) {
      this.#metrics.storeErrors.inc({ operation, kind: storeErrorKind(error) });
      throw error;
    } finally {
      this.#inFlight--;
      this.#durations[operation][outcome].observe((performance.now() - started) / 1000);
    }
  }
}
