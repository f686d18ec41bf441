import type { IncomingHttpHeaders } from 'node:http';
import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  type SpanOptions,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { setGlobalErrorHandler } from '@opentelemetry/core';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { defaultResource, detectResources, envDetector } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  type Sampler,
  SamplingDecision,
} from '@opentelemetry/sdk-trace-node';
import type { Middleware, Next, ParameterizedContext } from 'koa';
import type { Logger } from 'pino';
import type { AppState } from '../http/app-state.js';
import { routeTemplate } from '../metrics/api-metrics.js';
import type {
  IdempotentCreate,
  IdempotentCreateResult,
  ListPetsOptions,
  PetDraft,
  PetJson,
  PetPageJson,
  PetStore,
} from '../store/pet-store.js';
import { exportFailure } from './export-failure.js';
import { ExportProblems } from './export-problems.js';
import type { RequestTracing } from './request-tracing.js';
import { RequestTraceIds, RootTraces } from './root-traces.js';
import { samplerFromEnv } from './sampler-from-env.js';
import { WorkerSpanExporter } from './worker-span-exporter.js';

const TRACER_NAME = '@animal-store/api';

/**
 * The server span of each request: its parent is the caller's `traceparent` (and `tracestate`),
 * if any; it is the active span while the request is served, so the store's spans (and the
 * MongoDB driver's) are its children. Named `METHOD /route/template` once routed, never by the
 * raw path; a 5xx marks it as an error. The configured sampler decides first, on the trace id
 * the span would have, and the span takes that id. A request that carries none of the
 * propagator's fields has nothing to extract; one without a caller's span context (none, or
 * only baggage) is a new trace, whose id and decision come from `RootTraces`; a caller's trace
 * is decided by the sampler asked on the caller's context. A request the sampler leaves out gets
 * no span and runs outside any trace context, so its store calls make no span either
 * (PERFORMANCE.md). The access log gets the trace id of a recorded request and of a caller's
 * trace; an unsampled root request has none, as nothing anywhere would carry it.
 */
function serverSpans(tracer: Tracer, sampler: Sampler, ids: RequestTraceIds): Middleware<AppState> {
  const fields = propagation.fields().map((field) => field.toLowerCase());
  const roots = new RootTraces(sampler, ids);
  return (ctx, next) => {
    const { headers } = ctx.req;
    const parent = carriesAny(headers, fields)
      ? propagation.extract(ROOT_CONTEXT, headers)
      : ROOT_CONTEXT;
    const caller = trace.getSpanContext(parent);
    if (caller === undefined) {
      const traceId = roots.next();
      if (traceId === undefined) return next();
      ids.handOver(traceId);
    } else {
      const { traceId } = caller;
      const { decision } = sampler.shouldSample(
        parent,
        traceId,
        ctx.method,
        SpanKind.SERVER,
        {},
        [],
      );
      if (decision === SamplingDecision.NOT_RECORD) {
        ctx.state.traceId = traceId;
        return next();
      }
    }
    return serveInSpan(ctx, next, tracer.startSpan(ctx.method, SERVER, parent), parent);
  };
}

/** Whether `headers` has any of `fields` (a propagator's header names, in lower case). */
function carriesAny(headers: IncomingHttpHeaders, fields: readonly string[]): boolean {
  for (const field of fields) if (headers[field] !== undefined) return true;
  return false;
}

const SERVER = { kind: SpanKind.SERVER };

/** Serves the request with `span` (recording) active, and ends it with the answer's status. */
async function serveInSpan(
  ctx: ParameterizedContext<AppState>,
  next: Next,
  span: Span,
  parent: Context,
): Promise<void> {
  const method = ctx.method;
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
class TracedPetStore implements PetStore {
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

/**
 * OpenTelemetry's Node tracer, configured by the standard `OTEL_*` variables (the exporter's
 * endpoint, headers, timeout and compression, the sampler, the batch processor, the service
 * name and resource attributes): the SDK's `BatchSpanProcessor` and OTLP/HTTP JSON exporter (the
 * latter in a worker thread, `WorkerSpanExporter`), with W3C trace context and baggage
 * propagation and the MongoDB driver's instrumentation. Batches that could not be sent are
 * logged (`exportProblems`).
 */
export function startOpenTelemetry(env: NodeJS.ProcessEnv, logger: Logger): RequestTracing {
  // A batch the exporter could not send (its retries spent) reaches the SDK's global error
  // handler, which would otherwise write the whole error, the collector's answer included, to a
  // diagnostic logger nobody set. The log gets what `exportFailure` keeps of it.
  const problems = exportProblems(logger);
  setGlobalErrorHandler((error) => problems.report(exportFailure(error)));
  const resource = defaultResource().merge(detectResources({ detectors: [envDetector] }));
  const sampler = samplerFromEnv(env);
  const ids = new RequestTraceIds();
  const provider = new NodeTracerProvider({
    sampler,
    idGenerator: ids,
    resource,
    spanProcessors: [new BatchSpanProcessor(new WorkerSpanExporter(resource))],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [new MongoDBInstrumentation()],
  });
  const tracer = provider.getTracer(TRACER_NAME);
  return {
    middleware: serverSpans(tracer, sampler, ids),
    traceStore: (store) => new TracedPetStore(store, tracer),
    shutdown: () => provider.shutdown(),
  };
}

/** Batches of spans that were not sent, as warnings: at most one a minute (`ExportProblems`). */
export function exportProblems(logger: Logger): ExportProblems {
  return new ExportProblems((cause, unlogged) =>
    logger.warn({ cause, ...(unlogged > 0 ? { unlogged } : {}) }, 'spans not sent'),
  );
}
