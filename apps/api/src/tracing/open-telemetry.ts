import { setGlobalErrorHandler } from '@opentelemetry/core';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { defaultResource, detectResources, envDetector } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { Logger } from 'pino';
import { exportFailure } from './export-failure.js';
import { ExportProblems } from './export-problems.js';
import type { RequestTracing } from './request-tracing.js';
import { RequestTraceIds } from './root-traces.js';
import { samplerFromEnv } from './sampler-from-env.js';
import { serverSpans } from './server-spans.js';
import { TracedPetStore } from './traced-pet-store.js';
import { WorkerSpanExporter } from './worker-span-exporter.js';

const TRACER_NAME = '@animal-store/api';

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
