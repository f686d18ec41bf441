import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { defaultResource, detectResources, envDetector } from '@opentelemetry/resources';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { Middleware, Next, ParameterizedContext } from 'koa';
import type { Logger } from 'pino';
import type { AppState } from '../http/app-state.js';
import { routeTemplate } from '../metrics/api-metrics.js';
import type {
  IdempotentCreate,
  IdempotentCreateResult,
  ListPetsOptions,
  PetDraft,
  PetPage,
  PetPageJson,
  PetStore,
  StoredPet,
} from '../store/pet-store.js';
import { ExportProblems } from './export-problems.js';
import type { RequestTracing } from './request-tracing.js';
import { RootSampling, samplerFromEnv } from './root-sampling.js';
import { type SpanExportEvents, WorkerSpanProcessor } from './worker-span-processor.js';

const TRACER_NAME = '@animal-store/api';

/**
 * The server span of each request: its parent is the caller's `traceparent` (and `tracestate`),
 * if any; it is the active span while the request is served, so the store's spans (and the
 * MongoDB driver's) are its children. Named `METHOD /route/template` once routed, never by the
 * raw path; a 5xx marks it as an error.
 *
 * A request the sampler leaves out costs next to nothing: one that starts a trace is decided by
 * one random draw before any span or id exists (`RootSampling`), the caller's context is read
 * only when it sent one, and an unsampled request runs outside any context (no `context.with`),
 * so nothing is carried across its `await`s. Its children need nothing: `TracedPetStore` makes no
 * span without a recording parent, and the MongoDB instrumentation none without a parent span.
 * The access log gets the trace id of a sampled request and of a caller's trace; an unsampled
 * root request has none, as nothing anywhere would carry it.
 */
function serverSpans(tracer: Tracer, roots: RootSampling): Middleware<AppState> {
  return (ctx, next) => {
    const method = ctx.req.method ?? 'GET';
    const headers = ctx.req.headers;
    if (headers.traceparent === undefined && headers.baggage === undefined) {
      if (!roots.sampleRoot()) return next();
      return serveInSpan(ctx, next, tracer.startSpan(method, SERVER, ROOT_CONTEXT), ROOT_CONTEXT);
    }
    const parent = propagation.extract(ROOT_CONTEXT, headers);
    // The samplers the API takes (`OTEL_TRACES_SAMPLER`) decide on the parent and trace id alone:
    // the attributes are set once the span records, so an unsampled request makes none.
    const span = tracer.startSpan(method, SERVER, parent);
    if (!span.isRecording()) {
      ctx.state.traceId = span.spanContext().traceId;
      return next();
    }
    return serveInSpan(ctx, next, span, parent);
  };
}

const SERVER = { kind: SpanKind.SERVER };

/** Serves the request with `span` (recording) active, and ends it with the answer's status. */
async function serveInSpan(
  ctx: ParameterizedContext<AppState>,
  next: Next,
  span: Span,
  parent: Context,
): Promise<void> {
  const method = ctx.req.method ?? 'GET';
  ctx.state.traceId = span.spanContext().traceId;
  span.setAttributes({
    'http.request.method': method,
    'url.path': ctx.path,
    'url.scheme': 'http',
  });
  try {
    await context.with(trace.setSpan(parent, span), next);
  } finally {
    const route = routeTemplate(ctx);
    if (route !== undefined) {
      span.updateName(`${method} ${route}`);
      span.setAttribute('http.route', route);
    }
    const status = ctx.res.statusCode;
    span.setAttribute('http.response.status_code', status);
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  }
}

/** Whether a recording span is active: a sampled request's, not an unsampled one's. */
const recording = (): boolean => trace.getActiveSpan()?.isRecording() === true;

/**
 * A `PetStore` whose every call is a span (`pet_store <operation>`), a child of the request's; a
 * call without a recording span around it (an unsampled request) is the inner store's alone: it
 * costs that check, and no closure.
 */
class TracedPetStore implements PetStore {
  constructor(
    readonly inner: PetStore,
    readonly tracer: Tracer,
  ) {}

  create(draft: PetDraft): Promise<StoredPet> {
    if (!recording()) return this.inner.create(draft);
    return this.#span('create', () => this.inner.create(draft));
  }

  createOnce(request: IdempotentCreate): Promise<IdempotentCreateResult> {
    if (!recording()) return this.inner.createOnce(request);
    return this.#span('createOnce', () => this.inner.createOnce(request));
  }

  get(id: number): Promise<StoredPet | undefined> {
    if (!recording()) return this.inner.get(id);
    return this.#span('get', () => this.inner.get(id));
  }

  list(options: ListPetsOptions): Promise<PetPage> {
    if (!recording()) return this.inner.list(options);
    return this.#span('list', () => this.inner.list(options));
  }

  getJson(id: number): Promise<string | undefined> {
    if (!recording()) return this.inner.getJson(id);
    return this.#span('get', () => this.inner.getJson(id));
  }

  listJson(options: ListPetsOptions): Promise<PetPageJson> {
    if (!recording()) return this.inner.listJson(options);
    return this.#span('list', () => this.inner.listJson(options));
  }

  ping(): Promise<void> {
    if (!recording()) return this.inner.ping();
    return this.#span('ping', () => this.inner.ping());
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** `call` in a span of its own, a child of the recording span around it. */
  #span<T>(operation: string, call: () => Promise<T>): Promise<T> {
    return this.tracer.startActiveSpan(
      `pet_store ${operation}`,
      { kind: SpanKind.INTERNAL, attributes: { 'pet_store.operation': operation } },
      async (span: Span) => {
        try {
          return await call();
        } catch (error) {
          span.recordException(error as Error);
          span.setStatus({ code: SpanStatusCode.ERROR });
          throw error;
        } finally {
          span.end();
        }
      },
    );
  }
}

/**
 * OpenTelemetry's Node tracer, configured by the standard `OTEL_*` variables (the exporter's
 * endpoint, headers, timeout and compression, the sampler, the batch processor, the service
 * name and resource attributes), batching and exporting OTLP/HTTP JSON in a worker thread
 * (`WorkerSpanProcessor`), with W3C trace context and baggage propagation and the MongoDB
 * driver's instrumentation. Spans lost on the way are logged (`exportEvents`).
 */
export function startOpenTelemetry(env: NodeJS.ProcessEnv, logger: Logger): RequestTracing {
  const { sampler, rootRatio } = samplerFromEnv(env);
  const roots = new RootSampling(rootRatio);
  const resource = defaultResource().merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({
    sampler,
    idGenerator: roots,
    resource,
    spanProcessors: [new WorkerSpanProcessor(resource, exportEvents(logger))],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [new MongoDBInstrumentation()],
  });
  const tracer = provider.getTracer(TRACER_NAME);
  return {
    middleware: serverSpans(tracer, roots),
    traceStore: (store) => new TracedPetStore(store, tracer),
    shutdown: () => provider.shutdown(),
  };
}

/**
 * Spans that were not sent, as log lines: a warning for a batch the exporter gave up on (at most
 * one a minute, `ExportProblems`), an error if the worker that sends them ever stops.
 */
export function exportEvents(logger: Logger): SpanExportEvents {
  const problems = new ExportProblems((cause, unlogged) =>
    logger.warn({ cause, ...(unlogged > 0 ? { unlogged } : {}) }, 'spans not sent'),
  );
  return {
    problem: (message) => problems.report(message),
    stopped: (reason) =>
      logger.error({ cause: reason }, 'span export stopped: spans are no longer sent'),
  };
}
