/**
 * The worker thread that batches and sends the API's spans: OpenTelemetry's own batch span
 * processor and OTLP/HTTP exporter, configured by the same `OTEL_BSP_*` and
 * `OTEL_EXPORTER_OTLP_*` variables (a worker sees the process's environment). It runs here so that
 * spans wait for their batch in this thread's heap, and its HTTP client shares no thread, nor V8's
 * type feedback of Node's stream and HTTP code, with the server's requests (`WorkerSpanProcessor`).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { setGlobalErrorHandler } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { exportFailure } from './export-failure.js';
import { readableSpan, spansOfText } from './span-data.js';
import type { ExportRequest, SpanExportWorkerData, WorkerMessage } from './span-export-messages.js';

const port = parentPort;
if (!port) throw new Error('span-export-worker runs as a worker thread');
const post = (message: WorkerMessage) => port.postMessage(message);

// A batch the exporter could not send (its retries spent) reaches the SDK's global error
// handler, which would otherwise write the whole error, the collector's answer included, to a
// diagnostic logger nobody set. The main thread logs what `exportFailure` keeps of it.
setGlobalErrorHandler((error) => post({ type: 'problem', message: exportFailure(error) }));

const data = workerData as SpanExportWorkerData;
const resource = resourceFromAttributes(data.resourceAttributes, {
  schemaUrl: data.resourceSchemaUrl,
});
const batches = new BatchSpanProcessor(new OTLPTraceExporter());

const reply = (id: number, error?: unknown) =>
  post({
    type: 'reply',
    id,
    ...(error === undefined
      ? {}
      : { error: error instanceof Error ? error.message : String(error) }),
  });

port.on('message', (request: ExportRequest) => {
  if (request.type === 'spans') {
    for (const span of spansOfText(request.spans)) batches.onEnd(readableSpan(span, resource));
    return;
  }
  const done = request.type === 'flush' ? batches.forceFlush() : batches.shutdown();
  done.then(
    () => reply(request.id),
    (error: unknown) => reply(request.id, error),
  );
});
