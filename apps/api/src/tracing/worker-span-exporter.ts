import { Worker } from 'node:worker_threads';
import type { Attributes } from '@opentelemetry/api';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-node';
import { exportFailure } from './export-failure.js';
import { type SpanData, spanData } from './span-data.js';

/** What the worker is started with: the resource of every span it sends. */
export interface ExportWorkerData {
  resource: Attributes;
}

/** What the worker is asked: to send a batch, to flush, to shut down; `id` names its answer. */
export type ExportRequest = { id: number } & (
  | { type: 'export'; spans: SpanData[] }
  | { type: 'flush' }
  | { type: 'shutdown' }
);

/** The worker's answer to request `id`: what went wrong (`exportFailure`), if anything. */
export interface ExportAnswer {
  id: number;
  failed?: string;
}

type Ask = ExportRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

/**
 * A `SpanExporter` that hands each batch, as plain data (`spanData`), to OpenTelemetry's
 * OTLP/HTTP exporter running in a worker thread (`span-export-worker.ts`) and reports its result:
 * the exporter's HTTP client and sockets stay off the thread that serves requests, whose HTTP
 * code then runs for the server alone. The worker holds the process open only while it has
 * work; a worker that died fails every export after it.
 */
export class WorkerSpanExporter implements SpanExporter {
  readonly #worker: Worker;
  readonly #waiting = new Map<number, (failed?: string) => void>();
  #nextId = 0;
  #gone: string | undefined;

  constructor(resource: Resource) {
    const workerData: ExportWorkerData = { resource: resource.attributes };
    this.#worker = new Worker(new URL('./span-export-worker.js', import.meta.url), { workerData });
    this.#worker.unref();
    this.#worker.on('message', ({ id, failed }: ExportAnswer) => {
      const done = this.#waiting.get(id);
      this.#waiting.delete(id);
      if (this.#waiting.size === 0) this.#worker.unref();
      done?.(failed);
    });
    const gone = (why: string) => {
      this.#gone ??= why;
      for (const done of this.#waiting.values()) done(this.#gone);
      this.#waiting.clear();
    };
    this.#worker.on('error', (error) => gone(exportFailure(error)));
    this.#worker.on('exit', (code) => gone(`the span export worker stopped (${code})`));
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    void this.#ask({ type: 'export', spans: spans.map(spanData) }).then((failed) =>
      resultCallback(
        failed === undefined
          ? { code: ExportResultCode.SUCCESS }
          : { code: ExportResultCode.FAILED, error: new Error(failed) },
      ),
    );
  }

  async forceFlush(): Promise<void> {
    const failed = await this.#ask({ type: 'flush' });
    if (failed !== undefined) throw new Error(failed);
  }

  async shutdown(): Promise<void> {
    await this.#ask({ type: 'shutdown' });
    await this.#worker.terminate();
  }

  /** Sends `request` to the worker; resolves with its answer (what failed, if anything). */
  #ask(request: Ask): Promise<string | undefined> {
    if (this.#gone !== undefined) return Promise.resolve(this.#gone);
    const id = this.#nextId++;
    this.#worker.ref();
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      this.#worker.postMessage({ ...request, id } as ExportRequest);
    });
  }
}
