import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/**
 * What the peers (`fastify.ts`, `koa.ts`) each do per request as the API does: the request id,
 * the access log and the latency histogram, set up alike so that only the framework differs.
 */

// A caller's id is echoed only when it is safe in logs and headers.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** The caller's sane `X-Request-Id`, else a fresh UUID. */
export function requestIdFor(header: string | string[] | undefined): string {
  return typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

/** The access log: pino, one line per request, written synchronously to stdout as the API's. */
export function accessLogger(service: string): pino.Logger {
  return pino(
    { level: process.env.LOG_LEVEL ?? 'info', base: { service, pid: process.pid } },
    pino.destination({ fd: 1, sync: true }),
  );
}

/** A registry with the default process metrics and the request latency histogram. */
export function requestMetrics(): {
  registry: Registry;
  duration: Histogram<'method' | 'route' | 'status'>;
} {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'time to answer each request',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return { registry, duration };
}
