import type { LabelledHistogram } from '../metrics/labelled-histogram.js';
import type {
  IdempotentCreate,
  IdempotentCreateResult,
  ListPetsOptions,
  PetDraft,
  PetPage,
  PetStore,
  StoredPet,
} from './pet-store.js';

const OPERATIONS = ['create', 'createOnce', 'get', 'list', 'ping'] as const;
type Operation = (typeof OPERATIONS)[number];
type Outcome = 'ok' | 'error';

// The label values of each operation and outcome, made once: nothing is allocated per call for them.
const labelsOf = (operation: Operation) =>
  ({ ok: [operation, 'ok'], error: [operation, 'error'] }) as const;
const LABELS = Object.fromEntries(
  OPERATIONS.map((operation) => [operation, labelsOf(operation)]),
) as Record<Operation, ReturnType<typeof labelsOf>>;

/**
 * A `PetStore` that times every operation of the store it wraps into a histogram labelled by
 * operation and outcome, and otherwise behaves exactly like it.
 */
export class InstrumentedPetStore implements PetStore {
  readonly #inner: PetStore;
  readonly #duration: LabelledHistogram<'operation' | 'outcome'>;

  constructor(inner: PetStore, duration: LabelledHistogram<'operation' | 'outcome'>) {
    this.#inner = inner;
    this.#duration = duration;
  }

  create(draft: PetDraft): Promise<StoredPet> {
    return this.#timed('create', performance.now(), this.#inner.create(draft));
  }

  createOnce(request: IdempotentCreate): Promise<IdempotentCreateResult> {
    return this.#timed('createOnce', performance.now(), this.#inner.createOnce(request));
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

  async #timed<T>(operation: Operation, started: number, result: Promise<T>): Promise<T> {
    let outcome: Outcome = 'error';
    try {
      const value = await result;
      outcome = 'ok';
      return value;
    } finally {
      this.#duration.observe(LABELS[operation][outcome], (performance.now() - started) / 1000);
    }
  }
}
