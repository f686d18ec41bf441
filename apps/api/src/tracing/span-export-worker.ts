/**
 * The worker thread that sends the API's spans: OpenTelemetry's own OTLP/HTTP exporter, configured
 * by the same `OTEL_EXPORTER_OTLP_*` variables (a worker sees the process's environment). It runs
 * here so that its HTTP client never shares a thread, and V8's type feedback of Node's stream and
 * HTTP code, with the server's requests (see `WorkerSpanExporter`).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { readableSpan } from './span-data.js';
import type { ExportReply, ExportRequest, SpanExportWorkerData } from './span-export-messages.js';

const port = parentPort;
if (!port) throw new Error('span-export-worker runs as a worker thread');
const data = workerData as SpanExportWorkerData;
const resource = resourceFromAttributes(data.resourceAttributes, {
  schemaUrl: data.resourceSchemaUrl,
});
const exporter = new OTLPTraceExporter();

const reply = (id: number, error?: unknown) =>
  port.postMessage({
    id,
    ...(error === undefined
      ? {}
      : { error: error instanceof Error ? error.message : String(error) }),
  } satisfies ExportReply);

async function serve(request: ExportRequest): Promise<void> {
  switch (request.type) {
    case 'export':
      exporter.export(
        request.spans.map((span) => readableSpan(span, resource)),
        ({ code, error }) =>
          reply(request.id, code === ExportResultCode.SUCCESS ? undefined : (error ?? 'failed')),
      );
      return;
    case 'flush':
      await exporter.forceFlush();
      return reply(request.id);
    case 'shutdown':
      await exporter.shutdown();
      return reply(request.id);
  }
}

port.on('message', (request: ExportRequest) => {
  serve(request).catch((error: unknown) => reply(request.id, error));
});
