import { Writable } from 'node:stream';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../src/logger.js';
import { exportEvents } from '../src/tracing/open-telemetry.js';
import { WorkerSpanProcessor } from '../src/tracing/worker-span-processor.js';

const resource = resourceFromAttributes({ 'service.name': 'under-test' });

/** A worker script, inline. */
const script = (source: string) => new URL(`data:text/javascript,${encodeURIComponent(source)}`);

/** Records what the processor tells its owner. */
function recorder() {
  const problems: string[] = [];
  const stops: string[] = [];
  return {
    problems,
    stops,
    events: {
      problem: (message: string) => problems.push(message),
      stopped: (reason: string) => stops.push(reason),
    },
  };
}

describe('spans lost on the way out', () => {
  it('passes on what the worker could not send', async () => {
    const { events, problems, stops } = recorder();
    const processor = new WorkerSpanProcessor(
      resource,
      events,
      script(`import { parentPort } from 'node:worker_threads';
        parentPort.postMessage({ type: 'problem', message: 'Bad Request (400)' });
        parentPort.on('message', (m) => { if (m.type === 'shutdown') parentPort.postMessage({ type: 'reply', id: m.id }); });`),
    );
    await vi.waitFor(() => expect(problems).toEqual(['Bad Request (400)']), { timeout: 30_000 });
    await processor.shutdown();
    expect(stops).toEqual([]);
  });

  it('says once that the worker stopped, and a flush after fails', async () => {
    const { events, stops } = recorder();
    const processor = new WorkerSpanProcessor(
      resource,
      events,
      script(`throw new Error('the worker broke')`),
    );
    await vi.waitFor(() => expect(stops).toHaveLength(1), { timeout: 30_000 });
    expect(stops[0]).toBe('span export worker failed: the worker broke');
    await expect(processor.forceFlush()).rejects.toThrow('the worker broke');
    expect(stops).toHaveLength(1);
  });

  it('says nothing when the real worker stops at shutdown', async () => {
    const { events, problems, stops } = recorder();
    // The built worker: a worker thread runs JavaScript, not the test's TypeScript.
    const worker = new URL('../dist/tracing/span-export-worker.js', import.meta.url);
    const processor = new WorkerSpanProcessor(resource, events, worker);
    await processor.forceFlush();
    await processor.shutdown();
    expect({ problems, stops }).toEqual({ problems: [], stops: [] });
  });

  it('logs a problem as a warning and a stop as an error, with their cause', () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const events = exportEvents(createLogger('info', sink));
    events.problem('Bad Request (400)');
    events.problem('Bad Request (400)');
    events.stopped('span export worker exited (1)');
    expect(lines).toEqual([
      expect.objectContaining({ level: 40, msg: 'spans not sent', cause: 'Bad Request (400)' }),
      expect.objectContaining({
        level: 50,
        msg: 'span export stopped: spans are no longer sent',
        cause: 'span export worker exited (1)',
      }),
    ]);
    expect(lines[0]).not.toHaveProperty('unlogged');
  });
});
