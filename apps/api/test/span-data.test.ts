import {
  createTraceState,
  ROOT_CONTEXT,
  type SpanContext,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { describe, expect, it } from 'vitest';
import { readableSpan, spanData } from '../src/tracing/span-data.js';

/** What the OTLP exporter reads of a span, with its contexts' trace states as text. */
function asExported(span: ReadableSpan) {
  const text = (context: SpanContext) => ({
    ...context,
    traceState: context.traceState?.serialize(),
  });
  return {
    name: span.name,
    kind: span.kind,
    context: text(span.spanContext()),
    parent: span.parentSpanContext && text(span.parentSpanContext),
    startTime: span.startTime,
    endTime: span.endTime,
    duration: span.duration,
    ended: span.ended,
    status: span.status,
    attributes: span.attributes,
    links: span.links.map((link) => ({ ...link, context: text(link.context) })),
    events: span.events,
    scope: span.instrumentationScope,
    dropped: [span.droppedAttributesCount, span.droppedEventsCount, span.droppedLinksCount],
  };
}

/** A tracer whose spans end in an in-memory exporter, with its resource. */
function recordedTracer() {
  const exporter = new InMemorySpanExporter();
  const resource = resourceFromAttributes({ 'service.name': 'span-data-test' });
  const provider = new BasicTracerProvider({
    resource,
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('@animal-store/api', '1.2.3');
  /** The one span ended so far. */
  const ended = () => {
    const [span] = exporter.getFinishedSpans();
    if (span === undefined) throw new Error('no span ended');
    return span;
  };
  return { tracer, resource, ended };
}

describe('a span sent to the export worker', () => {
  it('arrives as the exporter would have read it in the process that ended it', () => {
    const { tracer, resource, ended: endedSpan } = recordedTracer();
    const caller = {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: 1,
      isRemote: true,
      traceState: createTraceState('caller=abc,other=1'),
    };
    const parent = trace.setSpanContext(ROOT_CONTEXT, caller);
    const span = tracer.startSpan(
      'GET /v1/pets',
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.route': '/v1/pets', 'http.response.status_code': 503 },
        links: [{ context: caller, attributes: { why: 'retry' } }],
      },
      parent,
    );
    span.recordException(new Error('store unavailable'));
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
    const ended = endedSpan();

    // Across the thread as structured clone carries it: plain data, no functions.
    const received = readableSpan(structuredClone(spanData(ended)), resource);
    expect(asExported(received)).toEqual(asExported(ended));
    expect(received.spanContext().traceId).toBe(caller.traceId);
    expect(received.parentSpanContext?.spanId).toBe(caller.spanId);
    expect(received.events.map((e) => e.name)).toEqual(['exception']);
    expect(received.resource).toBe(resource);
    expect(received.spanContext().traceState?.serialize()).toBe('caller=abc,other=1');
  });

  it('arrives without a trace state or a parent when it had none', () => {
    const { tracer, resource, ended: endedSpan } = recordedTracer();
    tracer.startSpan('GET /v1/pets').end();
    const ended = endedSpan();
    expect(ended.spanContext().traceState).toBeUndefined();

    const sent = structuredClone(spanData(ended));
    expect(sent.context).not.toHaveProperty('traceState');
    const received = readableSpan(sent, resource);
    expect(asExported(received)).toEqual(asExported(ended));
    expect(received.spanContext().traceState).toBeUndefined();
    expect(received.parentSpanContext).toBeUndefined();
  });
});
