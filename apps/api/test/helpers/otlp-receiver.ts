import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stopAfterFile } from './file-cleanup.js';

/** A span as OTLP/HTTP JSON carries it (ids in hex), with its resource's attributes. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  traceState?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

interface OtlpAttribute {
  key: string;
  value: Record<string, unknown>;
}

const attributesOf = (list: OtlpAttribute[] = []) =>
  Object.fromEntries(list.map(({ key, value }) => [key, Object.values(value)[0]]));

export interface OtlpReceiver {
  /** e.g. `http://127.0.0.1:4318`: what `OTEL_EXPORTER_OTLP_ENDPOINT` is set to. */
  endpoint: string;
  spans: ReceivedSpan[];
  /** Resolves once the spans received satisfy `done`; rejects after `timeoutMs`. */
  until(done: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
}

/** An OTLP/HTTP JSON trace receiver on 127.0.0.1, stopped after the file's tests. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const waiters = new Set<() => void>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/traces') {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    for (const resourceSpans of body.resourceSpans ?? []) {
      const resource = attributesOf(resourceSpans.resource?.attributes);
      for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
        for (const span of scopeSpans.spans ?? []) {
          spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            traceState: span.traceState || undefined,
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
            resource,
          });
        }
      }
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    for (const wake of waiters) wake();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  stopAfterFile(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    until: (done, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (!done(spans)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(spans);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`spans not received in ${timeoutMs} ms: ${JSON.stringify(spans)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
  };
}
