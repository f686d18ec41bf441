import { describe, expect, it } from 'vitest';
import { AnimalStoreClient, AnimalStoreError } from '../src/index.js';
import { answer, errorJson, scriptedServer } from './support/scripted-server.js';

const rex = { id: 1, name: 'Rex', categoryId: 1, status: 'available' };

/** A client on `origin` whose waits are recorded and return at once, without jitter. */
function clientOn(origin: string, retry = {}) {
  const waits: number[] = [];
  const client = new AnimalStoreClient({
    baseUrl: `${origin}/v1`,
    apiKey: 'k',
    retry,
    sleep: async (ms) => {
      waits.push(ms);
    },
    now: () => Date.parse('2026-06-01T00:00:00Z'),
    random: () => 0,
  });
  return { client, waits };
}

describe('create retries what is safe to retry', () => {
  it('resends a 503 after Retry-After with the same key and body, and says a replay is one', async () => {
    const server = await scriptedServer((n, _req, res) => {
      if (n === 0)
        return answer(res, 503, errorJson(503, 'service_unavailable'), { 'Retry-After': '7' });
      answer(res, 201, rex, { 'Idempotency-Replayed': 'true', 'X-Request-Id': 'r-2' });
    });
    const { client, waits } = clientOn(server.origin);
    const created = await client.pets.create(
      { name: 'Rex', categoryId: 1 },
      { idempotencyKey: true },
    );
    expect(created).toMatchObject({ pet: rex, replayed: true, requestId: 'r-2' });
    expect(waits).toEqual([7000]);
    const [first, second] = server.received;
    expect(first?.headers['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
    expect(second?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
    expect(created.idempotencyKey).toBe(first?.headers['idempotency-key']);
    expect(second?.body).toBe(first?.body);
    expect(first?.headers.authorization).toBe('Bearer k');
  });

  it('resends after a connection that closed without an answer, with the same key', async () => {
    const server = await scriptedServer((n, _req, res) => {
      if (n === 0) return res.socket?.destroy();
      answer(res, 201, rex);
    });
    const { client, waits } = clientOn(server.origin, { backoffMs: 10 });
    const created = await client.pets.create(
      { name: 'Rex', categoryId: 1 },
      { idempotencyKey: 'order-42' },
    );
    expect(created.replayed).toBe(false);
    expect(waits).toEqual([5]);
    expect(server.received.map((r) => r.headers['idempotency-key'])).toEqual([
      'order-42',
      'order-42',
    ]);
  });

  it('without a key, retries a 429 but throws a 503 and a network error at once', async () => {
    const server = await scriptedServer((n, _req, res) => {
      if (n === 0) return answer(res, 429, errorJson(429, 'rate_limited'), { 'Retry-After': '0' });
      if (n === 1) return answer(res, 201, rex);
      if (n === 2)
        return answer(res, 503, errorJson(503, 'service_unavailable'), { 'Retry-After': '0' });
      res.socket?.destroy();
    });
    const { client, waits } = clientOn(server.origin);
    await expect(client.pets.create({ name: 'Rex', categoryId: 1 })).resolves.toMatchObject({
      pet: rex,
      idempotencyKey: undefined,
    });
    expect(waits).toEqual([0]);
    await expect(client.pets.create({ name: 'Rex', categoryId: 1 })).rejects.toMatchObject({
      code: 'service_unavailable',
      status: 503,
    });
    await expect(client.pets.create({ name: 'Rex', categoryId: 1 })).rejects.toMatchObject({
      code: 'network_error',
      status: 0,
    });
    expect(server.received).toHaveLength(4);
  });

  it('retries a 409 for a key still in progress', async () => {
    const server = await scriptedServer((n, _req, res) => {
      if (n === 0) return answer(res, 409, errorJson(409, 'conflict'), { 'Retry-After': '1' });
      answer(res, 201, rex, { 'Idempotency-Replayed': 'true' });
    });
    const { client, waits } = clientOn(server.origin);
    const created = await client.pets.create(
      { name: 'Rex', categoryId: 1 },
      { idempotencyKey: 'k-409' },
    );
    expect(created.replayed).toBe(true);
    expect(waits).toEqual([1000]);
  });

  it('gives up after its attempts, or when Retry-After asks for longer than it waits', async () => {
    const server = await scriptedServer((n, _req, res) =>
      answer(res, 503, errorJson(503, 'service_unavailable'), {
        'Retry-After': n < 3 ? '1' : '3600',
      }),
    );
    const { client, waits } = clientOn(server.origin, { attempts: 3 });
    const error = await client.pets
      .create({ name: 'R', categoryId: 1 }, { idempotencyKey: 'a' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(AnimalStoreError);
    expect(error).toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(server.received).toHaveLength(3);
    expect(waits).toEqual([1000, 1000]);
    await expect(
      client.pets.create({ name: 'R', categoryId: 1 }, { idempotencyKey: 'b' }),
    ).rejects.toMatchObject({ status: 503 });
    expect(server.received).toHaveLength(4);
  });

  it('never retries with retry: false', async () => {
    const server = await scriptedServer((_n, _req, res) =>
      answer(res, 429, errorJson(429, 'rate_limited'), { 'Retry-After': '0' }),
    );
    const client = new AnimalStoreClient({
      baseUrl: `${server.origin}/v1`,
      apiKey: 'k',
      retry: false,
    });
    await expect(client.pets.list().next()).rejects.toMatchObject({ code: 'rate_limited' });
    expect(server.received).toHaveLength(1);
  });
});
