import {
  type Context,
  context,
  SpanKind,
  type SpanOptions,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type {
  IdempotentCreate,
  IdempotentCreateResult,
  ListPetsOptions,
  PetDraft,
  PetJson,
  PetPageJson,
  PetStore,
} from '../store/pet-store.js';

/** A store call's span, named and described once per operation rather than per call. */
interface StoreOperation {
  readonly name: string;
  readonly options: SpanOptions;
}

const storeOperation = (operation: string): StoreOperation => ({
  name: `pet_store ${operation}`,
  options: { kind: SpanKind.INTERNAL, attributes: { 'pet_store.operation': operation } },
});

const CREATE = storeOperation('create');
const CREATE_ONCE = storeOperation('createOnce');
const GET = storeOperation('get');
const LIST = storeOperation('list');
const PING = storeOperation('ping');

/** The active context when its span records (a sampled request's), else undefined. */
function recordingContext(): Context | undefined {
  const active = context.active();
  return trace.getSpan(active)?.isRecording() ? active : undefined;
}

/**
 * A `PetStore` whose every call is a span (`pet_store <operation>`), a child of the request's; a
 * call without a recording span around it (an unsampled request) is the inner store's alone: it
 * costs one look at the active context, and no closure.
 */
export class TracedPetStore implements PetStore {
  constructor(
    readonly inner: PetStore,
    readonly tracer: Tracer,
  ) {}

  create(draft: PetDraft): Promise<PetJson> {
    const parent = recordingContext();
    if (parent === undefined) return this.inner.create(draft);
    return this.#span(CREATE, parent, this.inner.create, draft);
  }

  createOnce(request: IdempotentCreate): Promise<IdempotentCreateResult> {
    const parent = recordingContext();
    if (parent === undefined) return this.inner.createOnce(request);
    return this.#span(CREATE_ONCE, parent, this.inner.createOnce, request);
  }

  getJson(id: number): Promise<string | undefined> {
    const parent = recordingContext();
    if (parent === undefined) return this.inner.getJson(id);
    return this.#span(GET, parent, this.inner.getJson, id);
  }

  listJson(options: ListPetsOptions): Promise<PetPageJson> {
    const parent = recordingContext();
    if (parent === undefined) return this.inner.listJson(options);
    return this.#span(LIST, parent, this.inner.listJson, options);
  }

  ping(): Promise<void> {
    const parent = recordingContext();
    if (parent === undefined) return this.inner.ping();
    return this.#span(PING, parent, this.inner.ping, undefined);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** The inner store's `call` with `arg`, in a span of its own, a child of `parent`'s. */
  async #span<A, T>(
    operation: StoreOperation,
    parent: Context,
    call: (this: PetStore, arg: A) => Promise<T>,
    arg: A,
  ): Promise<T> {
    const span = this.tracer.startSpan(operation.name, operation.options, parent);
    try {
      return await context.with(trace.setSpan(parent, span), call, this.inner, arg);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  }
}
