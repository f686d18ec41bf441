import { Worker } from 'node:worker_threads';
import { TraceFlags } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { spanText, spanTexts } from './span-data.js';
import type { ExportRequest, SpanExportWorkerData, WorkerMessage } from './span-export-messages.js';

const WORKER = new URL('./span-export-worker.js', import.meta.url);

/** What the processor tells its owner: both mean spans were lost. */
export interface SpanExportEvents {
  /** Spans the worker could not send (`ExportProblem`). */
  problem(message: string): void;
  /** The worker stopped: every span after is dropped. Called once. */
  stopped(reason: string): void;
}

/** How long an ended span waits on the main thread for others to share its message. */
const POST_DELAY_MS = 100;
/** Spans that go at once, without waiting: the batch processor's default export batch. */
const POST_AT_COUNT = 512;

/**
 * A `SpanProcessor` that turns each sampled span, as it ends, into JSON text (`spanText`) and
 * posts the spans of up to 100 ms together to a worker thread (`span-export-worker.ts`), where
 * the SDK's batch processor holds them and its OTLP/HTTP exporter sends them.
 *
 * Why a thread. The batch processor holds a span for seconds, until its batch goes: long enough
 * for V8 to move it to the old generation, where it dies and adds to the full collections that
 * mark the whole store. And an export on the main thread runs Node's HTTP client through the same
 * stream and event code as the server's requests: the client's objects make that code's type
 * feedback polymorphic, V8 deoptimizes it, and every request after pays, sampled or not. Here a
 * span is one string for at most 100 ms. Why 100 ms: each message wakes the worker and costs the
 * main thread tens of microseconds, several times the text of a span; one message per sampled
 * request cost the API traced at 1% about 1% more CPU per request.
 *
 * The worker holds the process open only while a `flush` or `shutdown` waits for its answer. Spans
 * it could not send, and its end if it ever stops before `shutdown`, go to `events`.
 */
export class WorkerSpanProcessor implements SpanProcessor {
  readonly #worker: Worker;
  /** The text of each sampled span ended since the last post. */
  #ended: string[] = [];
  /** Posts `#ended` when its first span has waited `POST_DELAY_MS`. */
  #postTimer: NodeJS.Timeout | undefined;
  readonly #waiting = new Map<number, (error: string | undefined) => void>();
  #nextId = 0;
  /** Why the worker stopped, once it has: a flush after fails with it, spans are dropped. */
  #stopped: string | undefined;
  /** Set by `shutdown`: the worker's end is then expected, not an event. */
  #shuttingDown = false;

  /** `worker` is the worker's script: `span-export-worker.js` but in tests. */
  constructor(
    resource: Resource,
    private readonly events: SpanExportEvents,
    worker: URL = WORKER,
  ) {
    const data: SpanExportWorkerData = {
      resourceAttributes: resource.attributes,
      resourceSchemaUrl: resource.schemaUrl,
    };
    this.#worker = new Worker(worker, { workerData: data });
    this.#worker.unref();
    this.#worker.on('message', (message: WorkerMessage) =>
      message.type === 'reply'
        ? this.#settle(message.id, message.error)
        : this.events.problem(message.message),
    );
    this.#worker.on('error', (error) => this.#stop(`span export worker failed: ${error.message}`));
    this.#worker.on('exit', (code) => this.#stop(`span export worker exited (${code})`));
  }

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if ((span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    if (this.#stopped !== undefined) return;
    const waiting = this.#ended.push(spanText(span));
    if (waiting >= POST_AT_COUNT) this.#post();
    else if (waiting === 1) this.#postTimer = setTimeout(this.#post, POST_DELAY_MS).unref();
  }

  async forceFlush(): Promise<void> {
    if (this.#stopped !== undefined) throw new Error(this.#stopped);
    this.#post();
    await this.#ask('flush');
  }

  async shutdown(): Promise<void> {
    if (this.#stopped !== undefined) return;
    this.#post();
    this.#shuttingDown = true;
    try {
      await this.#ask('shutdown');
    } finally {
      await this.#worker.terminate();
    }
  }

  /** Posts the spans ended so far to the worker, as one JSON array. */
  readonly #post = (): void => {
    clearTimeout(this.#postTimer);
    if (this.#ended.length === 0 || this.#stopped !== undefined) return;
    const spans = spanTexts(this.#ended);
    this.#ended = [];
    this.#worker.postMessage({ type: 'spans', spans } satisfies ExportRequest);
  };

  /** Asks the worker to `type`; resolves with its answer, rejects with its error. */
  #ask(type: 'flush' | 'shutdown'): Promise<void> {
    const id = this.#nextId++;
    return new Promise<void>((resolve, reject) => {
      this.#waiting.set(id, (error) =>
        error === undefined ? resolve() : reject(new Error(error)),
      );
      if (this.#waiting.size === 1) this.#worker.ref();
      this.#worker.postMessage({ type, id } satisfies ExportRequest);
    });
  }

  #settle(id: number, error: string | undefined): void {
    const settle = this.#waiting.get(id);
    if (!settle) return;
    this.#waiting.delete(id);
    if (this.#waiting.size === 0) this.#worker.unref();
    settle(error);
  }

  #stop(reason: string): void {
    if (this.#stopped !== undefined) return;
    this.#stopped = reason;
    if (!this.#shuttingDown) this.events.stopped(reason);
    clearTimeout(this.#postTimer);
    this.#ended = [];
    for (const id of [...this.#waiting.keys()]) this.#settle(id, reason);
  }
}
