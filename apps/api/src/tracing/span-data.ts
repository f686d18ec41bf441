import {
  type Attributes,
  createTraceState,
  type HrTime,
  type SpanContext,
  type SpanKind,
  type SpanStatus,
} from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-node';

/** A span context as plain data: its trace state as its `tracestate` header text. */
interface ContextData {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceFlags: number;
  readonly isRemote?: boolean;
  readonly traceState?: string;
}

/**
 * An ended span as plain data, what a worker thread's `postMessage` can copy: everything the
 * OTLP exporter reads of a `ReadableSpan`, but its resource (one per process, sent once).
 */
export interface SpanData {
  readonly name: string;
  readonly kind: SpanKind;
  readonly context: ContextData;
  readonly parent?: ContextData;
  readonly startTime: HrTime;
  readonly endTime: HrTime;
  readonly duration: HrTime;
  readonly status: SpanStatus;
  readonly attributes: Attributes;
  readonly links: readonly {
    readonly context: ContextData;
    readonly attributes?: Attributes;
    readonly droppedAttributesCount?: number;
  }[];
  readonly events: readonly TimedEvent[];
  readonly droppedAttributesCount: number;
  readonly droppedEventsCount: number;
  readonly droppedLinksCount: number;
  readonly scope: InstrumentationScope;
}

function contextData(context: SpanContext): ContextData {
  const { traceId, spanId, traceFlags, isRemote, traceState } = context;
  return { traceId, spanId, traceFlags, isRemote, traceState: traceState?.serialize() };
}

function spanContext(data: ContextData): SpanContext {
  const { traceId, spanId, traceFlags, isRemote, traceState } = data;
  return {
    traceId,
    spanId,
    traceFlags,
    isRemote,
    traceState: traceState === undefined ? undefined : createTraceState(traceState),
  };
}

/** `span` as plain data. */
export function spanData(span: ReadableSpan): SpanData {
  const { name, kind, startTime, endTime, duration, status, attributes } = span;
  const { droppedAttributesCount, droppedEventsCount, droppedLinksCount } = span;
  const { name: scopeName, version, schemaUrl } = span.instrumentationScope;
  return {
    name,
    kind,
    context: contextData(span.spanContext()),
    parent: span.parentSpanContext && contextData(span.parentSpanContext),
    startTime,
    endTime,
    duration,
    status,
    attributes,
    links: span.links.map((link) => ({
      context: contextData(link.context),
      attributes: link.attributes,
      droppedAttributesCount: link.droppedAttributesCount,
    })),
    events: span.events,
    droppedAttributesCount,
    droppedEventsCount,
    droppedLinksCount,
    scope: { name: scopeName, version, schemaUrl },
  };
}

/**
 * `span` as the JSON text of its `SpanData`: one flat string, which the garbage collector neither
 * scans nor copies field by field, and a worker's `postMessage` copies in one piece. An attribute
 * value JSON has no text for (`NaN`, an infinity, `undefined` in an array) arrives as `null`.
 */
export function spanText(span: ReadableSpan): string {
  return JSON.stringify(spanData(span));
}

/** `spanText` texts as one JSON array, the text `spansOfText` reads. */
export function spanTexts(texts: readonly string[]): string {
  return `[${texts.join(',')}]`;
}

/** The spans of a `spanTexts` array. */
export function spansOfText(text: string): SpanData[] {
  return JSON.parse(text) as SpanData[];
}

/** The `ReadableSpan` that `data` was made of, with `resource` as its resource. */
export function readableSpan(data: SpanData, resource: Resource): ReadableSpan {
  const context = spanContext(data.context);
  return {
    name: data.name,
    kind: data.kind,
    spanContext: () => context,
    parentSpanContext: data.parent && spanContext(data.parent),
    startTime: data.startTime,
    endTime: data.endTime,
    duration: data.duration,
    status: data.status,
    attributes: data.attributes,
    links: data.links.map((link) => ({
      context: spanContext(link.context),
      attributes: link.attributes,
      droppedAttributesCount: link.droppedAttributesCount,
    })),
    events: [...data.events],
    ended: true,
    resource,
    instrumentationScope: data.scope,
    droppedAttributesCount: data.droppedAttributesCount,
    droppedEventsCount: data.droppedEventsCount,
    droppedLinksCount: data.droppedLinksCount,
  };
}
