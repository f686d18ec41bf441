import { ROOT_CONTEXT, SpanKind } from '@opentelemetry/api';
import {
  type IdGenerator,
  RandomIdGenerator,
  type Sampler,
  SamplingDecision,
} from '@opentelemetry/sdk-trace-node';

/**
 * Trace and span ids, random as the SDK's own (`RandomIdGenerator`), except that a request's
 * server span takes the trace id its sampling was decided on: the tracing middleware hands it
 * over just before it starts the span, and the span takes it at once.
 */
export class RequestTraceIds implements IdGenerator {
  readonly #random = new RandomIdGenerator();
  #decided: string | undefined;

  /** A new trace id, for a request without a caller's trace. */
  next(): string {
    return this.#random.generateTraceId();
  }

  /** Has the next root span take `traceId`. */
  handOver(traceId: string): void {
    this.#decided = traceId;
  }

  generateTraceId(): string {
    const id = this.#decided ?? this.#random.generateTraceId();
    this.#decided = undefined;
    return id;
  }

  generateSpanId(): string {
    return this.#random.generateSpanId();
  }
}

/** How many root traces are drawn at once. */
export const ROOT_TRACES_PER_DRAW = 256;

/**
 * The traces of requests that carry no caller's trace, each a new trace id with the configured
 * sampler's decision on it, drawn `ROOT_TRACES_PER_DRAW` at a time. Every sampler
 * `OTEL_TRACES_SAMPLER` names (`samplerFromEnv`) decides a root trace by its id alone, so a
 * decision made ahead is the one the request would get; drawn in a run, the ids and decisions
 * cost a fraction of what each request asking in turn pays, as the code and data of the id
 * generator and the sampler stay in the processor's caches for the whole run (PERFORMANCE.md).
 */
export class RootTraces {
  readonly #ids: string[] = new Array(ROOT_TRACES_PER_DRAW);
  readonly #sampled = new Uint8Array(ROOT_TRACES_PER_DRAW);
  #at = ROOT_TRACES_PER_DRAW;

  constructor(
    private readonly sampler: Sampler,
    private readonly ids: RequestTraceIds,
  ) {}

  /** The next root trace's id when the sampler keeps it; undefined when it leaves it out. */
  next(): string | undefined {
    if (this.#at === ROOT_TRACES_PER_DRAW) this.#draw();
    const at = this.#at++;
    return this.#sampled[at] === 1 ? this.#ids[at] : undefined;
  }

  #draw(): void {
    for (let i = 0; i < ROOT_TRACES_PER_DRAW; i++) {
      const id = this.ids.next();
      const { decision } = this.sampler.shouldSample(ROOT_CONTEXT, id, '', SpanKind.SERVER, {}, []);
      this.#ids[i] = id;
      this.#sampled[i] = decision === SamplingDecision.NOT_RECORD ? 0 : 1;
    }
    this.#at = 0;
  }
}
