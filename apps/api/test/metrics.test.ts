import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ApiMetrics } from '../src/metrics/api-metrics.js';
import { InstrumentedPetStore } from '../src/store/instrumented-pet-store.js';
import { MemoryPetStore } from '../src/store/memory-pet-store.js';
import { StoreUnavailableError } from '../src/store/pet-store.js';
import { auth, createPet, errorBody, startTestApi, TEST_KEY } from './helpers/api.js';
import { exchange } from './helpers/raw-http.js';

const METRICS_TOKEN = 'scrape-token-0123456789';

const api = await startTestApi({ rateLimit: { requests: 2, windowSeconds: 86_400 } });

async function scrape(origin: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${origin}/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return res.text();
}

/** The value of the sample `name{labels}` in a scrape, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}) {
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => present[key] === value)) {
      return Number(match[3]);
    }
  }
  return undefined;
}

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

  it('needs no API key', async () => {
    const res = await fetch(`${api.origin}/metrics`, {
      headers: { Authorization: `Bearer not-${TEST_KEY}` },
    });
    expect(res.status).toBe(200);
  });
});

describe('InstrumentedPetStore', () => {
  it('times a failing operation as an error and passes the failure on', async () => {
    const metrics = new ApiMetrics(new Registry(), { processMetrics: false });
    const failing = Object.assign(new MemoryPetStore(), {
      ping: async () => {
        throw new StoreUnavailableError();
      },
    });
    const store = new InstrumentedPetStore(failing, metrics.storeDuration);
    await expect(store.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
    await store.list({ limit: 5 });
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
