import { createTraceState, type Link, type SpanContext } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-node';

/** A span context as a message carries it: its trace state as its W3C text. */
type ContextData = Omit<SpanContext, 'traceState'> & { traceState?: string };

/**
 * An ended span as plain data, the kind a message to a worker thread can carry (functions and
 * classes cannot cross): what the OTLP exporter reads of a span, its resource aside (one for the
 * process, sent once).
 */
export interface SpanData
  extends Omit<
    ReadableSpan,
    'spanContext' | 'parentSpanContext' | 'links' | 'resource' | 'instrumentationScope'
  > {
  context: ContextData;
  parent?: ContextData;
  links: (Omit<Link, 'context'> & { context: ContextData })[];
  scope: { name: string; version?: string; schemaUrl?: string };
}

const contextData = ({ traceState, ...rest }: SpanContext): ContextData =>
  traceState === undefined ? rest : { ...rest, traceState: traceState.serialize() };

const spanContext = ({ traceState, ...rest }: ContextData): SpanContext =>
  traceState === undefined ? rest : { ...rest, traceState: createTraceState(traceState) };

/** `span` as plain data. */
export function spanData(span: ReadableSpan): SpanData {
  const { name, version, schemaUrl } = span.instrumentationScope;
  return {
    name: span.name,
    kind: span.kind,
    context: contextData(span.spanContext()),
    parent: span.parentSpanContext && contextData(span.parentSpanContext),
    startTime: span.startTime,
    endTime: span.endTime,
    duration: span.duration,
    ended: span.ended,
    status: span.status,
    attributes: span.attributes,
    links: span.links.map((link) => ({ ...link, context: contextData(link.context) })),
    events: span.events,
    scope: { name, version, schemaUrl },
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

/** The span `data` holds, in `resource`, as the exporter reads it. */
export function readableSpan(data: SpanData, resource: Resource): ReadableSpan {
  const { context, parent, links, scope, ...rest } = data;
  const ofSpan = spanContext(context);
  return {
    ...rest,
    spanContext: () => ofSpan,
    parentSpanContext: parent && spanContext(parent),
    links: links.map((link) => ({ ...link, context: spanContext(link.context) })),
    instrumentationScope: scope,
    resource,
  };
}
