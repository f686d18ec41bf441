import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-node';
import { describe, expect, it, vi } from 'vitest';
import { WorkerSpanProcessor } from '../src/tracing/worker-span-processor.js';

const resource = resourceFromAttributes({ 'service.name': 'under-test' });

/** A worker that reports the names of the spans in each message it gets, as a `problem`. */
const echo = new URL(
  `data:text/javascript,${encodeURIComponent(`import { parentPort } from 'node:worker_threads';
    parentPort.on('message', (m) => {
      if (m.type === 'spans') {
        const names = JSON.parse(m.spans).map((span) => span.name).join(',');
        parentPort.postMessage({ type: 'problem', message: names });
      } else parentPort.postMessage({ type: 'reply', id: m.id });
    });`)}`,
);

/** A processor on the echo worker, a tracer that ends spans into it, and each message's spans. */
function posting() {
  const messages: string[] = [];
  const processor = new WorkerSpanProcessor(
    resource,
    { problem: (names) => messages.push(names), stopped: () => {} },
    echo,
  );
  const tracer = new BasicTracerProvider({ spanProcessors: [processor] }).getTracer('test');
  const end = (...names: string[]) => {
    for (const name of names) tracer.startSpan(name).end();
  };
  return { processor, end, messages };
}

describe('how ended spans reach the export worker', () => {
  it('in one message for the spans that end close together, a new one for later spans', async () => {
    const { processor, end, messages } = posting();
    end('a', 'b', 'c');
    await vi.waitFor(() => expect(messages).toEqual(['a,b,c']), { timeout: 30_000 });
    end('d');
    await vi.waitFor(() => expect(messages).toEqual(['a,b,c', 'd']), { timeout: 30_000 });
    await processor.shutdown();
  });

  it('at once when 512 spans wait, without waiting for the others', async () => {
    const { processor, end, messages } = posting();
    const names = Array.from({ length: 513 }, (_, i) => `s${i}`);
    end(...names);
    await vi.waitFor(() => expect(messages).toHaveLength(2), { timeout: 30_000 });
    expect(messages).toEqual([names.slice(0, 512).join(','), 's512']);
    await processor.shutdown();
  });

  it('with the spans still waiting when flushed', async () => {
    const { processor, end, messages } = posting();
    end('a');
    await processor.forceFlush();
    // The worker answers the flush after the spans posted before it.
    expect(messages).toEqual(['a']);
    await processor.shutdown();
  });
});
