import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ApiMetrics } from '../src/metrics/api-metrics.js';
import { InstrumentedPetStore } from '../src/store/instrumented-pet-store.js';
import { MemoryPetStore } from '../src/store/memory-pet-store.js';
import {
  type IdempotentCreateResult,
  type PetPageJson,
  StoreUnavailableError,
} from '../src/store/pet-store.js';
import {
  auth,
  createPet,
  errorBody,
  json,
  parseErrorBody,
  startTestApi,
  TEST_KEY,
} from './helpers/api.js';
import { exchange, parseResponses } from './helpers/raw-http.js';
import { sample, scrape } from './helpers/scrape.js';
import { readPage, readPet } from './helpers/store.js';

const METRICS_TOKEN = 'scrape-token-0123456789';

const api = await startTestApi({ rateLimit: { requests: 2, windowSeconds: 86_400 } });

describe('GET /metrics', () => {
  it('counts requests by method, route template and status, never by raw path', async () => {
    const pet = await createPet(api);
    await fetch(`${api.base}/pets/${pet.id}`, { headers: auth });
    await fetch(`${api.origin}/no/such/${'x'.repeat(20)}`);
    const text = await scrape(api.origin);
    const labels = { method: 'GET', route: '/v1/pets/:petId', status: '200' };
    expect(sample(text, 'http_request_duration_seconds_count', labels)).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(1);
    const created = { method: 'POST', route: '/v1/pets', status: '201' };
    expect(sample(text, 'http_request_duration_seconds_count', created)).toBe(1);
    const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
    expect(sample(text, 'http_request_duration_seconds_count', unmatched)).toBe(1);
    expect(text).not.toContain(`/v1/pets/${pet.id}"`);
    expect(text).not.toContain('/no/such');
  });

  it('times store operations by operation and outcome', async () => {
    const text = await scrape(api.origin);
    const created = { operation: 'create', outcome: 'ok' };
    expect(sample(text, 'pet_store_operation_duration_seconds_count', created)).toBe(1);
    expect(sample(text, 'pet_store_operation_duration_seconds_sum', created)).toBeGreaterThan(0);
    expect(sample(text, 'pet_store_operation_duration_seconds_count', { operation: 'get' })).toBe(
      1,
    );
  });

  it('counts rate-limit rejections', async () => {
    const before = sample(await scrape(api.origin), 'rate_limit_rejections_total');
    expect(before).toBe(0);
    expect((await fetch(`${api.base}/pets`, { headers: auth })).status).toBe(429);
    expect(sample(await scrape(api.origin), 'rate_limit_rejections_total')).toBe(1);
  });

  it('counts requests Node refuses before routing, by status', async () => {
    await exchange(api.origin, 'NOT HTTP\r\n\r\n');
    expect(sample(await scrape(api.origin), 'http_protocol_errors_total', { status: '400' })).toBe(
      1,
    );
  });

  it('includes the default process metrics', async () => {
    const text = await scrape(api.origin);
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_eventloop_lag_seconds')).toBeDefined();
  });

  it('keeps one registry per app: two apps never mix their counts', async () => {
    const other = await startTestApi();
    await fetch(`${other.base}/pets`, { headers: auth });
    const otherText = await scrape(other.origin);
    const labels = { method: 'GET', route: '/v1/pets', status: '200' };
    expect(sample(otherText, 'http_request_duration_seconds_count', labels)).toBe(1);
    expect(
      sample(otherText, 'http_request_duration_seconds_count', { route: '/v1/pets/:petId' }),
    ).toBeUndefined();
  });

  it('asks for METRICS_TOKEN as a bearer token when one is set', async () => {
    const guarded = await startTestApi({ metricsToken: METRICS_TOKEN });
    for (const headers of [{}, auth, { Authorization: `Bearer ${METRICS_TOKEN}x` }]) {
      const res = await fetch(`${guarded.origin}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="animal-store"');
      expect((await errorBody(res)).code).toBe('unauthorized');
    }
    const text = await scrape(guarded.origin, { Authorization: `bearer ${METRICS_TOKEN}` });
    expect(text).toContain('http_request_duration_seconds_count');
    expect(JSON.stringify(guarded.logs)).not.toContain(METRICS_TOKEN);
  });

  it('refuses two Authorization headers with 400, as /v1 does, the right token first or not', async () => {
    const guarded = await startTestApi({ metricsToken: METRICS_TOKEN });
    for (const [server, first] of [
      [guarded, `Bearer ${METRICS_TOKEN}`],
      [guarded, 'Bearer wrong-token-0123456789'],
      [api, `Bearer ${METRICS_TOKEN}`],
    ] as const) {
      const { data } = await exchange(
        server.origin,
        `GET /metrics HTTP/1.1\r\nHost: ${new URL(server.origin).host}\r\n` +
          `Authorization: ${first}\r\nAuthorization: Bearer wrong-token-0123456789\r\n` +
          'Connection: close\r\n\r\n',
      );
      const [response] = parseResponses(data);
      expect(response?.status).toBe(400);
      expect(
        parseErrorBody(response?.headers['content-type'], response?.body ?? '', 400).code,
      ).toBe('bad_request');
    }
  });

  it('needs no API key', async () => {
    const res = await fetch(`${api.origin}/metrics`, {
      headers: { Authorization: `Bearer not-${TEST_KEY}` },
    });
    expect(res.status).toBe(200);
  });
});

describe('the metrics an on-call engineer looks for first', () => {
  it('counts the requests in flight, the scrape included', async () => {
    let reached!: () => void;
    const arrived = new Promise<void>((resolve) => {
      reached = resolve;
    });
    let release!: (page: PetPageJson) => void;
    const held = new Promise<PetPageJson>((resolve) => {
      release = resolve;
    });
    const store = Object.assign(new MemoryPetStore(), {
      listJson: () => {
        reached();
        return held;
      },
    });
    const gated = await startTestApi({ store });
    expect(sample(await scrape(gated.origin), 'http_requests_in_flight')).toBe(1);
    const answer = fetch(`${gated.base}/pets`, { headers: auth });
    await arrived;
    expect(sample(await scrape(gated.origin), 'http_requests_in_flight')).toBe(2);
    release({ json: '[]', lastId: undefined, hasMore: false });
    expect((await answer).status).toBe(200);
    expect(sample(await scrape(gated.origin), 'http_requests_in_flight')).toBe(1);
  });

  it('counts authentication failures by reason, from zero', async () => {
    const fresh = await startTestApi();
    const before = await scrape(fresh.origin);
    for (const reason of ['missing', 'malformed', 'unknown', 'revoked']) {
      expect(sample(before, 'auth_failures_total', { reason }), reason).toBe(0);
    }
    await fetch(`${fresh.base}/pets`);
    await fetch(`${fresh.base}/pets`, { headers: { Authorization: `Basic ${TEST_KEY}` } });
    await fetch(`${fresh.base}/pets`, { headers: { Authorization: 'Bearer not-a-key' } });
    await fetch(`${fresh.base}/pets`, { headers: { Authorization: 'Bearer not-a-key' } });
    await fetch(`${fresh.base}/pets`, { headers: auth });
    const after = await scrape(fresh.origin);
    expect(sample(after, 'auth_failures_total', { reason: 'missing' })).toBe(1);
    expect(sample(after, 'auth_failures_total', { reason: 'malformed' })).toBe(1);
    expect(sample(after, 'auth_failures_total', { reason: 'unknown' })).toBe(2);
    expect(sample(after, 'auth_failures_total', { reason: 'revoked' })).toBe(0);
  });

  it('counts idempotent creates by outcome: created, replayed, key reused', async () => {
    const fresh = await startTestApi();
    const post = (key: string, name: string) =>
      fetch(`${fresh.base}/pets`, {
        method: 'POST',
        headers: { ...json, 'Idempotency-Key': key },
        body: JSON.stringify({ name, categoryId: 1 }),
      });
    expect((await post('k1', 'Rex')).status).toBe(201);
    expect((await post('k1', 'Rex')).headers.get('idempotency-replayed')).toBe('true');
    expect((await post('k1', 'Max')).status).toBe(422);
    const text = await scrape(fresh.origin);
    expect(sample(text, 'idempotent_creates_total', { outcome: 'created' })).toBe(1);
    expect(sample(text, 'idempotent_creates_total', { outcome: 'replayed' })).toBe(1);
    expect(sample(text, 'idempotent_creates_total', { outcome: 'key-reused' })).toBe(1);
    expect(sample(text, 'idempotent_creates_total', { outcome: 'in-flight' })).toBe(0);
  });
});

describe('InstrumentedPetStore', () => {
  it('counts failures by kind: unavailable, timeout, other', async () => {
    const metrics = new ApiMetrics(new Registry(), { processMetrics: false });
    const failures: unknown[] = [
      new StoreUnavailableError('down'),
      new StoreUnavailableError('slow', { kind: 'timeout' }),
      new StoreUnavailableError('slow', { kind: 'timeout' }),
      new TypeError('a bug'),
    ];
    const failing = Object.assign(new MemoryPetStore(), {
      getJson: async () => {
        throw failures.shift();
      },
    });
    const store = new InstrumentedPetStore(failing, metrics);
    for (let i = 0; i < 4; i++) await expect(readPet(store, 1)).rejects.toBeDefined();
    const text = await metrics.registry.metrics();
    const count = (kind: string) =>
      sample(text, 'pet_store_errors_total', { operation: 'get', kind });
    expect([count('unavailable'), count('timeout'), count('other')]).toEqual([1, 2, 1]);
    expect(sample(text, 'pet_store_errors_total', { operation: 'list', kind: 'other' })).toBe(0);
  });

  it('counts a create still at work under another request as in-flight', async () => {
    const metrics = new ApiMetrics(new Registry(), { processMetrics: false });
    const busy = Object.assign(new MemoryPetStore(), {
      createOnce: async (): Promise<IdempotentCreateResult> => ({ outcome: 'in-flight' }),
    });
    const store = new InstrumentedPetStore(busy, metrics);
    const draft = { name: 'Rex', categoryId: 1, status: 'available' as const };
    await store.createOnce({ scope: 's', key: 'k', fingerprint: 'f', draft });
    const text = await metrics.registry.metrics();
    expect(sample(text, 'idempotent_creates_total', { outcome: 'in-flight' })).toBe(1);
  });

  it('times a failing operation as an error and passes the failure on', async () => {
    const metrics = new ApiMetrics(new Registry(), { processMetrics: false });
    const failing = Object.assign(new MemoryPetStore(), {
      ping: async () => {
        throw new StoreUnavailableError();
      },
    });
    const store = new InstrumentedPetStore(failing, metrics);
    await expect(store.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
    await readPage(store, { limit: 5 });
    const text = await metrics.registry.metrics();
    expect(
      sample(text, 'pet_store_operation_duration_seconds_count', {
        operation: 'ping',
        outcome: 'error',
      }),
    ).toBe(1);
    expect(
      sample(text, 'pet_store_operation_duration_seconds_count', {
        operation: 'list',
        outcome: 'ok',
      }),
    ).toBe(1);
  });
});
