import type { Attributes } from '@opentelemetry/api';
import type { SpanData } from './span-data.js';

/** What the span export worker starts with: the process's resource, for every span it sends. */
export interface SpanExportWorkerData {
  readonly resourceAttributes: Attributes;
  readonly resourceSchemaUrl?: string;
}

/** What the span export worker is asked to do. */
export type ExportTask =
  | { readonly type: 'export'; readonly spans: readonly SpanData[] }
  | { readonly type: 'flush' | 'shutdown' };

/** A task sent to the worker; it answers each with an `ExportReply` of the same id. */
export type ExportRequest = ExportTask & { readonly id: number };

/** The worker's answer: no `error` when the request succeeded. */
export interface ExportReply {
  readonly id: number;
  readonly error?: string;
}
