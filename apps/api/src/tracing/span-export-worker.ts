/**
 * The worker thread that sends the spans (`WorkerSpanExporter`): OpenTelemetry's OTLP/HTTP
 * exporter as published, configured by the same `OTEL_*` variables, its HTTP traffic on this
 * thread's event loop rather than on the one serving requests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { exportFailure } from './export-failure.js';
import { readableSpan } from './span-data.js';
import type { ExportAnswer, ExportRequest, ExportWorkerData } from './worker-span-exporter.js';

const port = parentPort;
if (port === null) throw new Error('span-export-worker runs as a worker thread');
const exporter = new OTLPTraceExporter();
const resource = resourceFromAttributes((workerData as ExportWorkerData).resource);

port.on('message', (request: ExportRequest) => {
  const answer = (failed?: string) => port.postMessage({ id: request.id, failed } as ExportAnswer);
  const settle = (done: Promise<void>) =>
    done.then(
      () => answer(),
      (error: unknown) => answer(exportFailure(error)),
    );
  switch (request.type) {
    case 'export':
      exporter.export(
        request.spans.map((span) => readableSpan(span, resource)),
        ({ code, error }) =>
          answer(code === ExportResultCode.SUCCESS ? undefined : exportFailure(error)),
      );
      break;
    case 'flush':
      void settle(exporter.forceFlush());
      break;
    case 'shutdown':
      void settle(exporter.shutdown());
      break;
  }
});
