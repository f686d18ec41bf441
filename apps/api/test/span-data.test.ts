import {
  context,
  createTraceState,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  trace,
} from '@opentelemetry/api';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { describe, expect, it } from 'vitest';
import { readableSpan, spansOfText, spanText, spanTexts } from '../src/tracing/span-data.js';

const resource = resourceFromAttributes(
  { 'service.name': 'span-data-test', 'deployment.environment': 'test' },
  { schemaUrl: 'https://opentelemetry.io/schemas/1.24.0' },
);

/** The spans as the worker reads them: the processor's texts, joined in one message. */
const carried = (spans: ReadableSpan[]) => spansOfText(spanTexts(spans.map(spanText)));

/** Spans with every part the exporter sends: a remote parent, links, events, an error. */
function endedSpans(): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource,
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('span-data-test', '1.2.3', {
    schemaUrl: 'https://example.com/schema',
  });
  const remote = trace.setSpanContext(ROOT_CONTEXT, {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    traceFlags: TraceFlags.SAMPLED,
    isRemote: true,
    traceState: createTraceState('vendor=abc,other=1'),
  });
  const server = tracer.startSpan(
    'GET /v1/pets/:petId',
    {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': 'GET', 'http.response.status_code': 500, ok: false },
      links: [
        {
          context: {
            traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
            spanId: '00f067aa0ba902b7',
            traceFlags: TraceFlags.NONE,
            traceState: createTraceState('k=v'),
          },
          attributes: { 'link.kind': 'batch', sizes: [1, 2, 3] },
        },
      ],
    },
    remote,
  );
  context.with(trace.setSpan(remote, server), () => {
    const store = tracer.startSpan('pet_store get', {
      attributes: { 'pet_store.operation': 'get', tags: ['a', 'b'] },
    });
    store.recordException(new Error('store down'));
    store.setStatus({ code: SpanStatusCode.ERROR, message: 'store down' });
    store.end();
  });
  server.addEvent('answered', { bytes: 123 });
  server.setStatus({ code: SpanStatusCode.ERROR });
  server.end();
  return exporter.getFinishedSpans();
}

const otlpJson = (spans: ReadableSpan[]) =>
  new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans));

describe('a span as JSON text', () => {
  it('survives its trip as JSON text and gives the exporter the same OTLP request', () => {
    const spans = endedSpans();
    expect(spans).toHaveLength(2);
    const rebuilt = carried(spans).map((data) => readableSpan(data, resource));
    const sent = otlpJson(rebuilt);
    expect(sent).toBe(otlpJson(spans));
    // The request does carry what could have been lost.
    for (const part of [
      'vendor=abc,other=1',
      'k=v',
      'store down',
      'answered',
      'span-data-test',
      'https://example.com/schema',
      'https://opentelemetry.io/schemas/1.24.0',
    ]) {
      expect(sent).toContain(part);
    }
  });

  it('keeps a span without a parent, links or events as it was', () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      resource,
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    provider.getTracer('plain').startSpan('GET /v1/pets').end();
    const spans = exporter.getFinishedSpans();
    const rebuilt = carried(spans).map((d) => readableSpan(d, resource));
    expect(rebuilt[0]?.parentSpanContext).toBeUndefined();
    expect(rebuilt[0]?.spanContext().traceState).toBeUndefined();
    expect(otlpJson(rebuilt)).toBe(otlpJson(spans));
  });
});
