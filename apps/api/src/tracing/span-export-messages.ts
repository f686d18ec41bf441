import type { Attributes } from '@opentelemetry/api';

/** What the span export worker starts with: the process's resource, for every span it sends. */
export interface SpanExportWorkerData {
  readonly resourceAttributes: Attributes;
  readonly resourceSchemaUrl?: string;
}

/**
 * A message to the span export worker: sampled spans that ended, to batch and send (a JSON array
 * of `SpanData`, `spansOfText`); or a request to send every span it holds (`flush`), then also to
 * stop (`shutdown`), which it answers with an `ExportReply` of the same id.
 */
export type ExportRequest =
  | { readonly type: 'spans'; readonly spans: string }
  | { readonly type: 'flush' | 'shutdown'; readonly id: number };

/** The worker's answer to a `flush` or `shutdown`: no `error` when it succeeded. */
export interface ExportReply {
  readonly type: 'reply';
  readonly id: number;
  readonly error?: string;
}

/**
 * Spans the worker could not send: a batch the collector refused or never received (the
 * exporter's retries spent). Spans dropped from a full queue (`OTEL_BSP_MAX_QUEUE_SIZE`) are not
 * reported: the SDK says so only through its diagnostic logger, which is not forwarded.
 */
export interface ExportProblem {
  readonly type: 'problem';
  readonly message: string;
}

/** What the span export worker posts to the main thread. */
export type WorkerMessage = ExportReply | ExportProblem;
