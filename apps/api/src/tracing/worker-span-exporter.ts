import { Worker } from 'node:worker_threads';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-node';
import { spanData } from './span-data.js';
import type { ExportReply, ExportTask, SpanExportWorkerData } from './span-export-messages.js';

const WORKER = new URL('./span-export-worker.js', import.meta.url);

/**
 * A `SpanExporter` that hands each batch, as plain data, to a worker thread running the OTLP/HTTP
 * exporter (`span-export-worker.ts`), and reports the worker's answer.
 *
 * Why a thread: an export on the main thread runs Node's HTTP client through the same stream and
 * event code as the server's requests, and the objects it passes (a client request, its response)
 * make that code's type feedback polymorphic: V8 deoptimizes it, and every request after pays,
 * sampled or not (at a low request rate most of all, where the code is slow to be optimized
 * again). What stays on the main thread is copying each ended span into a message.
 *
 * The worker holds the process open only while a request to it is unanswered.
 */
export class WorkerSpanExporter implements SpanExporter {
  readonly #worker: Worker;
  readonly #pending = new Map<number, (error: string | undefined) => void>();
  #nextId = 0;
  /** Why the worker stopped, once it has: every request after fails with it. */
  #stopped: string | undefined;

  constructor(resource: Resource) {
    const data: SpanExportWorkerData = {
      resourceAttributes: resource.attributes,
      resourceSchemaUrl: resource.schemaUrl,
    };
    this.#worker = new Worker(WORKER, { workerData: data });
    this.#worker.unref();
    this.#worker.on('message', ({ id, error }: ExportReply) => this.#settle(id, error));
    this.#worker.on('error', (error) => this.#stop(`span export worker failed: ${error.message}`));
    this.#worker.on('exit', (code) => this.#stop(`span export worker exited (${code})`));
  }

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.#ask({ type: 'export', spans: spans.map(spanData) }).then(
      () => resultCallback({ code: ExportResultCode.SUCCESS }),
      (error: Error) => resultCallback({ code: ExportResultCode.FAILED, error }),
    );
  }

  async forceFlush(): Promise<void> {
    if (this.#stopped === undefined) await this.#ask({ type: 'flush' });
  }

  async shutdown(): Promise<void> {
    if (this.#stopped !== undefined) return;
    try {
      await this.#ask({ type: 'shutdown' });
    } finally {
      await this.#worker.terminate();
    }
  }

  /** Sends `task` to the worker; resolves with its answer, rejects with its error. */
  #ask(task: ExportTask): Promise<void> {
    if (this.#stopped !== undefined) return Promise.reject(new Error(this.#stopped));
    const id = this.#nextId++;
    return new Promise<void>((resolve, reject) => {
      this.#pending.set(id, (error) =>
        error === undefined ? resolve() : reject(new Error(error)),
      );
      if (this.#pending.size === 1) this.#worker.ref();
      this.#worker.postMessage({ ...task, id });
    });
  }

  #settle(id: number, error: string | undefined): void {
    const settle = this.#pending.get(id);
    if (!settle) return;
    this.#pending.delete(id);
    if (this.#pending.size === 0) this.#worker.unref();
    settle(error);
  }

  #stop(reason: string): void {
    this.#stopped ??= reason;
    for (const id of [...this.#pending.keys()]) this.#settle(id, reason);
  }
}
