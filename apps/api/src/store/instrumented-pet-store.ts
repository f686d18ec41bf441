import type { Counter } from 'prom-client';
import {
  type IdempotentOutcome,
  STORE_OPERATIONS,
  type StoreErrorKind,
  type StoreOperation,
} from '../metrics/api-metrics.js';
import type { LabelledHistogram } from '../metrics/labelled-histogram.js';
import {
  type IdempotentCreate,
  type IdempotentCreateResult,
  type ListPetsOptions,
  type PetDraft,
  type PetPage,
  type PetStore,
  type StoredPet,
  StoreUnavailableError,
} from './pet-store.js';

type Outcome = 'ok' | 'error';

// The label values of each operation and outcome, made once: nothing is allocated per call for them.
const labelsOf = (operation: StoreOperation) =>
  ({ ok: [operation, 'ok'], error: [operation, 'error'] }) as const;
const LABELS = Object.fromEntries(
  STORE_OPERATIONS.map((operation) => [operation, labelsOf(operation)]),
) as Record<StoreOperation, ReturnType<typeof labelsOf>>;

/** What a store error was, for `pet_store_errors_total`. */
export function storeErrorKind(error: unknown): StoreErrorKind {
  return error instanceof StoreUnavailableError ? error.kind : 'other';
}

/** The metrics an `InstrumentedPetStore` records (`ApiMetrics` holds them). */
export interface StoreMetrics {
  /** Time each operation takes, by operation and outcome (`ok` or `error`). */
  readonly storeDuration: LabelledHistogram<'operation' | 'outcome'>;
  /** Failed operations, by operation and `storeErrorKind`. */
  readonly storeErrors: Counter<'operation' | 'kind'>;
  /** `createOnce` results, by outcome. */
  readonly idempotentCreates: Counter<'outcome'>;
}

/**
 * A `PetStore` that times every operation of the store it wraps, counts its failures by kind
 * and what each idempotent create came to, and otherwise behaves exactly like it.
 */
export class InstrumentedPetStore implements PetStore {
  readonly #inner: PetStore;
  readonly #metrics: StoreMetrics;

  constructor(inner: PetStore, metrics: StoreMetrics) {
    this.#inner = inner;
    this.#metrics = metrics;
  }

  create(draft: PetDraft): Promise<StoredPet> {
    return this.#timed('create', performance.now(), this.#inner.create(draft));
  }

  async createOnce(request: IdempotentCreate): Promise<IdempotentCreateResult> {
    const result = await this.#timed(
      'createOnce',
      performance.now(),
      this.#inner.createOnce(request),
    );
    this.#metrics.idempotentCreates.inc({ outcome: result.outcome satisfies IdempotentOutcome });
    return result;
  }

  get(id: number): Promise<StoredPet | undefined> {
    return this.#timed('get', performance.now(), this.#inner.get(id));
  }

  list(options: ListPetsOptions): Promise<PetPage> {
    return this.#timed('list', performance.now(), this.#inner.list(options));
  }

  ping(): Promise<void> {
    return this.#timed('ping', performance.now(), this.#inner.ping());
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  async #timed<T>(operation: StoreOperation, started: number, result: Promise<T>): Promise<T> {
    let outcome: Outcome = 'error';
    try {
      const value = await result;
      outcome = 'ok';
      return value;
    } catch (error) {
      this.#metrics.storeErrors.inc({ operation, kind: storeErrorKind(error) });
      throw error;
    } finally {
      this.#metrics.storeDuration.observe(
        LABELS[operation][outcome],
        (performance.now() - started) / 1000,
      );
    }
  }
}
