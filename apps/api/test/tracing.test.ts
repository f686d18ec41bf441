import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ROOT_CONTEXT } from '@opentelemetry/api';
import { SamplingDecision, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-node';
import { describe, expect, it } from 'vitest';
import { tracingWanted } from '../src/tracing/tracing.js';
import { type ReceivedSpan, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { type ApiProcess, startApiProcess } from './helpers/processes.js';

const KEY = 'tracing-key-0123456789';
const auth = { Authorization: `Bearer ${KEY}` };

// Loaded into the service before its own code: on exit, says whether any OpenTelemetry package
// but the API was ever loaded (they are CommonJS, so they show in the module cache). The API,
// a no-op facade until an SDK registers, is prom-client's own dependency: always loaded.
const OTEL_PROBE = `data:text/javascript,${encodeURIComponent(`
import { createRequire } from 'node:module';
const cache = createRequire(process.cwd() + '/').cache;
process.on('exit', () => {
  const loaded = Object.keys(cache).some((file) => /[\\\\/]@opentelemetry[\\\\/](?!api[\\\\/])/.test(file));
  process.stderr.write('opentelemetry loaded: ' + loaded + '\\n');
});
`)}`;

const SERVER = 2;

/** A W3C `traceparent` header: version 00, the trace, the caller's span (random unless given). */
const traceparent = (traceId: string, flags: string, spanId = randomBytes(8).toString('hex')) =>
  `00-${traceId}-${spanId}-${flags}`;

/** The service with tracing on, exporting its spans every 50 ms to a receiver of the test's. */
async function tracedApi(env: Record<string, string> = {}, nodeArgs: string[] = []) {
  const receiver = await startOtlpReceiver();
  const api = await startApiProcess(
    {
      API_KEYS: KEY,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '50',
      ...env,
    },
    nodeArgs,
  );
  return { receiver, api };
}

/**
 * The access-log lines (`"msg":"request"`) the service has written, parsed, once there are at
 * least `count`: a line is written as its request ends, which may be after its client has the
 * answer.
 */
function requestLines(api: ApiProcess, count: number) {
  return api.untilStdout((text) => {
    const lines = text
      .split('\n')
      .slice(0, -1) // the last is a line not yet ended, if any
      .filter((l) => l.includes('"msg":"request"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    return lines.length < count ? undefined : lines;
  });
}

// Each test starts its own process and receiver: they run side by side.
describe.concurrent('OpenTelemetry tracing', () => {
  it('follows a request sent with a traceparent: a server span by route, a span per store call', async () => {
    const { receiver, api } = await tracedApi({ OTEL_SERVICE_NAME: 'animal-store-under-test' }, [
      `--import=${OTEL_PROBE}`,
    ]);
    const created = await fetch(`${api.base}/pets`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    });
    const { id } = (await created.json()) as { id: number };
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const answer = await fetch(`${api.base}/pets/${id}`, {
      headers: {
        ...auth,
        traceparent: traceparent(traceId, '01', callerSpanId),
        tracestate: 'caller=abc',
      },
    });
    expect(answer.status).toBe(200);

    const ofTrace = (spans: ReceivedSpan[]) => spans.filter((s) => s.traceId === traceId);
    const spans = ofTrace(await receiver.until((all) => ofTrace(all).length >= 2));
    const server = spans.find((s) => s.kind === SERVER);
    expect(server).toMatchObject({
      name: 'GET /v1/pets/:petId',
      parentSpanId: callerSpanId,
      traceState: 'caller=abc',
      attributes: { 'http.route': '/v1/pets/:petId', 'http.response.status_code': 200 },
      resource: { 'service.name': 'animal-store-under-test' },
    });
    expect(spans.find((s) => s.name === 'pet_store get')).toMatchObject({
      parentSpanId: server?.spanId,
      attributes: { 'pet_store.operation': 'get' },
    });
    // The request's log line carries the trace id.
    const line = (await requestLines(api, 2)).find((l) => l.route === '/v1/pets/:petId');
    expect(line?.traceId).toBe(traceId);
    // A request without a traceparent starts a trace of its own.
    await fetch(`${api.base}/pets`, { headers: auth });
    const listed = await receiver.until((all) => all.some((s) => s.name === 'GET /v1/pets'));
    const root = listed.find((s) => s.name === 'GET /v1/pets');
    expect(root?.parentSpanId).toBeUndefined();
    // Its log line names the trace its span is in.
    const listLine = (await requestLines(api, 3)).find(
      (l) => l.method === 'GET' && l.route === '/v1/pets',
    );
    expect(listLine?.traceId).toBe(root?.traceId);

    api.child.kill('SIGTERM');
    await once(api.child, 'exit');
    expect(api.stderr()).toContain('opentelemetry loaded: true');
  });

  it('makes no span for a request the sampler leaves out, nor for its store calls', async () => {
    const { receiver, api } = await tracedApi();
    const [skipped, sampled] = [randomBytes(16).toString('hex'), randomBytes(16).toString('hex')];
    // The caller decided not to sample (flags 00): parent-based sampling follows it.
    const left = await fetch(`${api.base}/pets/1`, {
      headers: { ...auth, traceparent: traceparent(skipped, '00') },
    });
    expect(left.status).toBe(404);
    const kept = await fetch(`${api.base}/pets`, {
      headers: { ...auth, traceparent: traceparent(sampled, '01') },
    });
    expect(kept.status).toBe(200);
    const spans = await receiver.until((all) =>
      all.some((s) => s.traceId === sampled && s.kind === SERVER),
    );
    // Spans are exported in the order they end: the unsampled request's would be there by now.
    expect(spans.filter((s) => s.traceId !== sampled)).toEqual([]);
    expect(spans.map((s) => s.name).sort()).toEqual(['GET /v1/pets', 'pet_store list']);
    // Its log line still names the caller's trace.
    const line = (await requestLines(api, 2)).find((l) => l.route === '/v1/pets/:petId');
    expect(line?.traceId).toBe(skipped);
    api.child.kill('SIGTERM');
    await once(api.child, 'exit');
  });

  it('traces every root request under parentbased_always_on, each in a trace of its own', async () => {
    const { receiver, api } = await tracedApi({ OTEL_TRACES_SAMPLER: 'parentbased_always_on' });
    // No caller's span context: no propagator header, baggage alone, a traceparent that is not one.
    const roots = [
      auth,
      auth,
      { ...auth, baggage: 'tenant=a' },
      { ...auth, traceparent: 'not-a-traceparent' },
      { ...auth, traceparent: traceparent('0'.repeat(32), '01') },
    ];
    const count = roots.length;
    for (const headers of roots) {
      expect((await fetch(`${api.base}/pets`, { headers })).status).toBe(200);
    }
    const traceIds = (await requestLines(api, count)).map((l) => l.traceId as string);
    expect(new Set(traceIds).size).toBe(count);
    const ofTrace = (spans: ReceivedSpan[], id: string) => spans.filter((s) => s.traceId === id);
    const spans = await receiver.until((all) =>
      traceIds.every((id) => ofTrace(all, id).length >= 2),
    );
    for (const id of traceIds) {
      const server = ofTrace(spans, id).find((s) => s.kind === SERVER);
      expect(server).toMatchObject({
        name: 'GET /v1/pets',
        attributes: {
          'http.request.method': 'GET',
          'url.path': '/v1/pets',
          'url.scheme': 'http',
          'http.route': '/v1/pets',
          'http.response.status_code': 200,
        },
      });
      expect(server?.parentSpanId).toBeUndefined();
      const store = ofTrace(spans, id).find((s) => s.name === 'pet_store list');
      expect(store?.parentSpanId).toBe(server?.spanId);
    }
    api.child.kill('SIGTERM');
    await once(api.child, 'exit');
  });

  it('puts a sampled root request in the trace its sampling was decided on', async () => {
    const ratio = 0.5;
    const { receiver, api } = await tracedApi({
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: String(ratio),
    });
    const count = 24;
    for (let i = 0; i < count; i++) {
      // Half of them with baggage alone: still root requests, decided as the others are.
      const headers = i % 2 === 0 ? auth : { ...auth, baggage: 'tenant=a' };
      expect((await fetch(`${api.base}/pets`, { headers })).status).toBe(200);
    }
    const lines = await requestLines(api, count);
    const sampled = lines.flatMap((l) => (typeof l.traceId === 'string' ? [l.traceId] : []));
    // Half of 24 by trace id: none, or all, has odds of 1 in 8 million.
    expect(sampled.length).toBeGreaterThan(0);
    expect(sampled.length).toBeLessThan(count);
    // Each logged trace id is one the ratio sampler keeps: the one the decision was made on.
    const sampler = new TraceIdRatioBasedSampler(ratio);
    for (const id of sampled) {
      expect(sampler.shouldSample(ROOT_CONTEXT, id).decision).toBe(
        SamplingDecision.RECORD_AND_SAMPLED,
      );
    }
    // A last request of a caller's sampled trace: spans are exported in the order they end.
    const last = randomBytes(16).toString('hex');
    await fetch(`${api.base}/pets`, { headers: { ...auth, traceparent: traceparent(last, '01') } });
    const spans = await receiver.until((all) =>
      all.some((s) => s.traceId === last && s.kind === SERVER),
    );
    const servers = spans.filter((s) => s.kind === SERVER && s.traceId !== last);
    expect(servers.map((s) => s.traceId).sort()).toEqual([...sampled].sort());
    api.child.kill('SIGTERM');
    await once(api.child, 'exit');
  });

  it('makes no span and logs no trace id for a root request the sampler leaves out', async () => {
    const { receiver, api } = await tracedApi({ OTEL_TRACES_SAMPLER: 'parentbased_always_off' });
    for (const path of ['/pets/1', '/pets/2']) {
      expect((await fetch(`${api.base}${path}`, { headers: auth })).status).toBe(404);
    }
    const sampled = randomBytes(16).toString('hex');
    const kept = await fetch(`${api.base}/pets`, {
      headers: { ...auth, traceparent: traceparent(sampled, '01') },
    });
    expect(kept.status).toBe(200);
    const spans = await receiver.until((all) =>
      all.some((s) => s.traceId === sampled && s.kind === SERVER),
    );
    expect(spans.filter((s) => s.traceId !== sampled)).toEqual([]);
    const lines = await requestLines(api, 3);
    const left = lines.filter((l) => l.route === '/v1/pets/:petId');
    expect(left).toHaveLength(2);
    for (const line of left) expect(line).not.toHaveProperty('traceId');
    // The caller's sampled trace is still named in its line.
    expect(lines.find((l) => l.route === '/v1/pets')?.traceId).toBe(sampled);
    api.child.kill('SIGTERM');
    await once(api.child, 'exit');
  });

  it('sends the spans still queued when stopped with SIGTERM', async () => {
    // The batch is due in ten minutes: only the shutdown sends it.
    const { receiver, api } = await tracedApi({ OTEL_BSP_SCHEDULE_DELAY: '600000' });
    const traceId = randomBytes(16).toString('hex');
    const listed = await fetch(`${api.base}/pets`, {
      headers: { ...auth, traceparent: traceparent(traceId, '01') },
    });
    expect(listed.status).toBe(200);
    api.child.kill('SIGTERM');
    const [code] = await once(api.child, 'exit');
    expect(code).toBe(0);
    const spans = await receiver.until((all) => all.some((s) => s.traceId === traceId));
    const names = spans.filter((s) => s.traceId === traceId).map((s) => s.name);
    expect(names.sort()).toEqual(['GET /v1/pets', 'pet_store list']);
  });

  it('logs spans the collector refused, without its answer or the exporter headers', async () => {
    const collectorToken = 'collector-token-5f3a9c';
    const answerSecret = 'answer-secret-81d2e7';
    const headersSeen: string[] = [];
    const collector = createServer((req, res) => {
      headersSeen.push(String(req.headers.authorization));
      req.resume();
      req.on('end', () => res.writeHead(400).end(`refused, token ${answerSecret}`));
    });
    collector.listen(0, '127.0.0.1');
    await once(collector, 'listening');
    try {
      const { port } = collector.address() as AddressInfo;
      const api = await startApiProcess({
        API_KEYS: KEY,
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
        OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer ${collectorToken}`,
        OTEL_BSP_SCHEDULE_DELAY: '50',
      });
      const traceId = randomBytes(16).toString('hex');
      const listed = await fetch(`${api.base}/pets`, {
        headers: { ...auth, traceparent: traceparent(traceId, '01') },
      });
      expect(listed.status).toBe(200);
      const line = await api.untilStdout((text) => {
        const found = text
          .split('\n')
          .slice(0, -1)
          .find((l) => l.includes('"msg":"spans not sent"'));
        return found === undefined ? undefined : (JSON.parse(found) as Record<string, unknown>);
      });
      expect(line).toMatchObject({ level: 40, cause: 'Bad Request (400)' });
      // The collector was sent the token: the log never holds it, nor the collector's answer.
      expect(headersSeen).toContain(`Bearer ${collectorToken}`);
      api.child.kill('SIGTERM');
      await once(api.child, 'exit');
      expect(api.output()).not.toContain(collectorToken);
      expect(api.output()).not.toContain(answerSecret);
    } finally {
      collector.close();
    }
  });

  it('loads nothing of OpenTelemetry when no OTLP endpoint is set', async () => {
    const api = await startApiProcess({ API_KEYS: KEY }, [`--import=${OTEL_PROBE}`]);
    expect((await fetch(`${api.base}/pets`, { headers: auth })).status).toBe(200);
    const [line] = await requestLines(api, 1);
    expect(line).toBeDefined();
    expect(line).not.toHaveProperty('traceId');
    api.child.kill('SIGTERM');
    await once(api.child, 'exit');
    expect(api.stderr()).toContain('opentelemetry loaded: false');
  });

  it('is on only with an OTLP endpoint, and refuses what its exporter cannot send', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(
      tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }),
    ).toBe(true);
    const on = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(tracingWanted({ ...on, OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingWanted({ ...on, OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
    expect(() => tracingWanted({ ...on, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL must be http\/json/,
    );
    expect(() => tracingWanted({ ...on, OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(
      /OTEL_TRACES_EXPORTER must be otlp or none/,
    );
  });
});
