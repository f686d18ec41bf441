import type { IncomingHttpHeaders } from 'node:http';
import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { type Sampler, SamplingDecision } from '@opentelemetry/sdk-trace-node';
import type { Middleware, Next, ParameterizedContext } from 'koa';
import type { AppState } from '../http/app-state.js';
import { routeTemplate } from '../metrics/api-metrics.js';
import { type RequestTraceIds, RootTraces } from './root-traces.js';

/**
 * The server span of each request: its parent is the caller's `traceparent` (and `tracestate`),
 * if any; it is the active span while the request is served, so the store's spans (and the
 * MongoDB driver's) are its children. Named `METHOD /route/template` once routed, never by the
 * raw path; a 5xx marks it as an error. The configured sampler decides first, on the trace id
 * the span would have, and the span takes that id. A request that carries none of the
 * propagator's fields has nothing to extract; one without a caller's span context (none, or
 * only baggage) is a new trace, whose id and decision come from `RootTraces`; a caller's trace
 * is decided by the sampler asked on the caller's context. A request the sampler leaves out gets
 * no span and runs outside any trace context, so its store calls make no span either
 * (PERFORMANCE.md). The access log gets the trace id of a recorded request and of a caller's
 * trace; an unsampled root request has none, as nothing anywhere would carry it.
 */
export function serverSpans(
  tracer: Tracer,
  sampler: Sampler,
  ids: RequestTraceIds,
): Middleware<AppState> {
  const fields = propagation.fields().map((field) => field.toLowerCase());
  const roots = new RootTraces(sampler, ids);
  return (ctx, next) => {
    const { headers } = ctx.req;
    const parent = carriesAny(headers, fields)
      ? propagation.extract(ROOT_CONTEXT, headers)
      : ROOT_CONTEXT;
    const caller = trace.getSpanContext(parent);
    if (caller === undefined) {
      const traceId = roots.next();
      if (traceId === undefined) return next();
      ids.handOver(traceId);
    } else {
      const { traceId } = caller;
      const { decision } = sampler.shouldSample(
        parent,
        traceId,
        ctx.method,
        SpanKind.SERVER,
        {},
        [],
      );
      if (decision === SamplingDecision.NOT_RECORD) {
        ctx.state.traceId = traceId;
        return next();
      }
    }
    return serveInSpan(ctx, next, tracer.startSpan(ctx.method, SERVER, parent), parent);
  };
}

/** Whether `headers` has any of `fields` (a propagator's header names, in lower case). */
function carriesAny(headers: IncomingHttpHeaders, fields: readonly string[]): boolean {
  for (const field of fields) if (headers[field] !== undefined) return true;
  return false;
}

const SERVER = { kind: SpanKind.SERVER };

/** Serves the request with `span` (recording) active, and ends it with the answer's status. */
async function serveInSpan(
  ctx: ParameterizedContext<AppState>,
  next: Next,
  span: Span,
  parent: Context,
): Promise<void> {
  const method = ctx.method;
  ctx.state.traceId = span.spanContext().traceId;
  span.setAttributes({
    'http.request.method': method,
    'url.path': ctx.path,
    'url.scheme': 'http',
  });
  try {
    await context.with(trace.setSpan(parent, span), next);
  } finally {
    const route = routeTemplate(ctx);
    if (route !== undefined) {
      span.updateName(`${method} ${route}`);
      span.setAttribute('http.route', route);
    }
    const status = ctx.res.statusCode;
    span.setAttribute('http.response.status_code', status);
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  }
}
