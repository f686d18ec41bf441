import { randomBytes } from 'node:crypto';
import {
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  InMemorySpanExporter,
  NodeTracerProvider,
  ParentBasedSampler,
  type ReadableSpan,
  type Sampler,
  type SamplingResult,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryPetStore } from '../src/store/memory-pet-store.js';
import type { ListPetsOptions, PetPageJson } from '../src/store/pet-store.js';
import { RequestTraceIds } from '../src/tracing/root-traces.js';
import { serverSpans } from '../src/tracing/server-spans.js';
import { TracedPetStore } from '../src/tracing/traced-pet-store.js';
import { auth, startTestApi } from './helpers/api.js';

// The SDK's context manager and W3C propagators, as the API registers them.
beforeAll(() => {
  new NodeTracerProvider().register();
});
afterAll(() => {
  trace.disable();
  context.disable();
  propagation.disable();
});

/**
 * A tracer whose sampler follows a caller's decision and asks `root` about a new trace (as
 * `parentbased_always_on` does by default), and the spans it ended.
 */
function recorder(root: Sampler = new AlwaysOnSampler()) {
  const exporter = new InMemorySpanExporter();
  const ids = new RequestTraceIds();
  const sampler = new ParentBasedSampler({ root });
  const provider = new NodeTracerProvider({
    sampler,
    idGenerator: ids,
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('test');
  const ended = () => exporter.getFinishedSpans();
  const named = (name: string): ReadableSpan => {
    const span = ended().find((s) => s.name === name);
    if (span === undefined) throw new Error(`no span ${name}: ${ended().map((s) => s.name)}`);
    return span;
  };
  return { ids, sampler, tracer, ended, named };
}

/** Keeps every trace, and notes what it was asked about. */
class AskedAbout implements Sampler {
  readonly asked: { traceId: string; name: string }[] = [];
  shouldSample(_context: unknown, traceId: string, name: string): SamplingResult {
    this.asked.push({ traceId, name });
    return new AlwaysOnSampler().shouldSample();
  }
}

/** A memory store that notes the span active in each list call (none noted as null). */
class ActiveInLists extends MemoryPetStore {
  readonly active: (Span | null)[] = [];
  override listJson(options: ListPetsOptions): Promise<PetPageJson> {
    this.active.push(trace.getSpan(context.active()) ?? null);
    return super.listJson(options);
  }
}

/** A memory store whose reads fail. */
class FailingReads extends MemoryPetStore {
  override getJson(): Promise<string | undefined> {
    return Promise.reject(new RangeError('disk on fire'));
  }
}

describe('TracedPetStore', () => {
  /** Each of the store's calls, once. */
  async function everyCall(store: TracedPetStore): Promise<void> {
    const draft = { name: 'Rex', categoryId: 1, status: 'available' } as const;
    await store.create(draft);
    await store.createOnce({
      scope: 'k',
      key: randomBytes(8).toString('hex'),
      fingerprint: 'f',
      draft,
    });
    await store.getJson(1);
    await store.listJson({ limit: 20 });
    await store.ping();
  }

  it("makes each store call outside a recording span the inner store's alone: no span", async () => {
    const { tracer, ended } = recorder();
    const inner = new MemoryPetStore();
    await everyCall(new TracedPetStore(inner, tracer));
    expect(ended()).toEqual([]);
    expect(JSON.parse((await inner.listJson({ limit: 20 })).json)).toHaveLength(2);
  });

  it("makes each store call under a recording span a child span of that span's", async () => {
    const { tracer, ended } = recorder();
    const inner = new MemoryPetStore();
    const server = tracer.startSpan('GET', { kind: SpanKind.SERVER });
    await context.with(trace.setSpan(context.active(), server), () =>
      everyCall(new TracedPetStore(inner, tracer)),
    );
    server.end();
    const operations = ['create', 'createOnce', 'get', 'list', 'ping'];
    expect(ended().map((s) => s.name)).toEqual([...operations.map((o) => `pet_store ${o}`), 'GET']);
    ended()
      .slice(0, -1)
      .forEach((span, i) => {
        expect(span).toMatchObject({
          kind: SpanKind.INTERNAL,
          attributes: { 'pet_store.operation': operations[i] },
          parentSpanContext: { spanId: server.spanContext().spanId },
          events: [],
          status: { code: SpanStatusCode.UNSET },
        });
      });
    expect(JSON.parse((await inner.listJson({ limit: 20 })).json)).toHaveLength(2);
  });

  it('marks a failed store call with its exception and an error status, and throws it on', async () => {
    const { tracer, named } = recorder();
    const store = new TracedPetStore(new FailingReads(), tracer);
    const server = tracer.startSpan('GET', { kind: SpanKind.SERVER });
    const read = context.with(trace.setSpan(context.active(), server), () => store.getJson(1));
    await expect(read).rejects.toThrow('disk on fire');
    const span = named('pet_store get');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.events).toHaveLength(1);
    expect(span.events[0]).toMatchObject({
      name: 'exception',
      attributes: { 'exception.type': 'RangeError', 'exception.message': 'disk on fire' },
    });
  });
});

describe('serverSpans', () => {
  /** The API on 127.0.0.1 over `store`, every request traced by `recorder`'s tracer. */
  async function tracedApi(store = new MemoryPetStore(), root?: Sampler) {
    const rec = recorder(root);
    const api = await startTestApi({
      store,
      tracing: {
        middleware: serverSpans(rec.tracer, rec.sampler, rec.ids),
        traceStore: (inner) => new TracedPetStore(inner, rec.tracer),
        shutdown: async () => {},
      },
    });
    return { ...rec, api };
  }

  it('records a server span per request, named by its route, with its answer', async () => {
    const { api, named } = await tracedApi();
    const answer = await fetch(`${api.base}/pets?limit=5`, { headers: auth });
    expect(answer.status).toBe(200);
    const server = named('GET /v1/pets');
    expect(server.kind).toBe(SpanKind.SERVER);
    expect(server.parentSpanContext).toBeUndefined();
    expect(server.attributes).toEqual({
      'http.request.method': 'GET',
      'url.path': '/v1/pets',
      'url.scheme': 'http',
      'http.route': '/v1/pets',
      'http.response.status_code': 200,
    });
    expect(server.status.code).toBe(SpanStatusCode.UNSET);
    expect(named('pet_store list').parentSpanContext?.spanId).toBe(server.spanContext().spanId);
  });

  it('marks the server span of a 5xx answer as an error', async () => {
    const { api, named } = await tracedApi(new FailingReads());
    const answer = await fetch(`${api.base}/pets/1`, { headers: auth });
    expect(answer.status).toBeGreaterThanOrEqual(500);
    const server = named('GET /v1/pets/:petId');
    expect(server.status.code).toBe(SpanStatusCode.ERROR);
    expect(server.attributes['http.response.status_code']).toBe(answer.status);
    expect(named('pet_store get').status.code).toBe(SpanStatusCode.ERROR);
  });

  it('puts a root request in the trace its sampling was decided on', async () => {
    const root = new AskedAbout();
    const { api, named } = await tracedApi(undefined, root);
    expect((await fetch(`${api.base}/pets`, { headers: auth })).status).toBe(200);
    // `RootTraces` asks about new traces by their ids alone (no span name), in a run.
    const decided = root.asked.filter((ask) => ask.name === '');
    expect(decided.length).toBeGreaterThan(0);
    expect(named('GET /v1/pets').spanContext().traceId).toBe(decided[0]?.traceId);
  });

  it("follows the caller's decision, whatever it would decide about a new trace", async () => {
    const { api, ended, named } = await tracedApi(undefined, new AlwaysOffSampler());
    const traceId = randomBytes(16).toString('hex');
    const kept = await fetch(`${api.base}/pets`, {
      headers: { ...auth, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    });
    expect(kept.status).toBe(200);
    expect(named('GET /v1/pets').spanContext().traceId).toBe(traceId);
    expect(named('pet_store list').spanContext().traceId).toBe(traceId);
    const left = await fetch(`${api.base}/pets/1`, { headers: auth });
    expect(left.status).toBe(404);
    expect(ended().map((s) => s.name)).toEqual(['pet_store list', 'GET /v1/pets']);
    // The log line of a root request left out names no trace; the kept one names the caller's.
    const lines = api.logs.filter((line) => line.msg === 'request');
    expect(lines.map((line) => line.traceId)).toEqual([traceId, undefined]);
  });

  it("runs a request the sampler leaves out outside any span, a caller's or its own", async () => {
    const store = new ActiveInLists();
    const { api, ended } = await tracedApi(store, new AlwaysOffSampler());
    const callerSpanId = randomBytes(8).toString('hex');
    const traceId = randomBytes(16).toString('hex');
    const left = await fetch(`${api.base}/pets`, {
      headers: { ...auth, traceparent: `00-${traceId}-${callerSpanId}-00` },
    });
    expect(left.status).toBe(200);
    expect((await fetch(`${api.base}/pets`, { headers: auth })).status).toBe(200);
    expect(store.active).toEqual([null, null]);
    expect(ended()).toEqual([]);
  });

  it("names a request no route matched by its method alone, in the caller's trace", async () => {
    const { api, named } = await tracedApi();
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const answer = await fetch(`${api.base}/nowhere`, {
      headers: { ...auth, traceparent: `00-${traceId}-${callerSpanId}-01` },
    });
    expect(answer.status).toBe(404);
    const server = named('GET');
    expect(server.spanContext().traceId).toBe(traceId);
    expect(server.parentSpanContext?.spanId).toBe(callerSpanId);
    expect(server.attributes['http.route']).toBeUndefined();
    expect(server.attributes['url.path']).toBe('/v1/nowhere');
    expect(server.attributes['http.response.status_code']).toBe(404);
  });
});
