import { describe, expect, it } from 'vitest';
import {
  AnimalStoreClient,
  type AnimalStoreError,
  type RequestEvent,
  type ResponseEvent,
} from '../src/index.js';
import { answer, errorJson, scriptedServer } from './support/scripted-server.js';

const rex = { id: 1, name: 'Rex', categoryId: 1, status: 'available' as const };

describe('hooks and the raw Response', () => {
  it('shows each attempt to onRequest and onResponse, the key hidden, the retry announced', async () => {
    const server = await scriptedServer((n, _req, res) => {
      if (n === 0) return answer(res, 502, { error: 'bad gateway' });
      answer(res, 201, rex, { 'X-Request-Id': 'from-api', RateLimit: '"default";r=9;t=60' });
    });
    const requests: RequestEvent[] = [];
    const responses: ResponseEvent[] = [];
    const client = new AnimalStoreClient({
      baseUrl: `${server.origin}/v1`,
      apiKey: 'secret-key',
      sleep: async () => {},
      random: () => 0,
      onRequest: (event) => requests.push(event),
      onResponse: (event) => responses.push(event),
    });
    const created = await client.pets.create(rex, { idempotencyKey: 'k-1' });
    expect(requests.map((e) => e.attempt)).toEqual([1, 2]);
    expect(requests[0]).toMatchObject({
      method: 'POST',
      url: `${server.origin}/v1/pets`,
      body: JSON.stringify(rex),
      headers: { Authorization: 'Bearer [redacted]', 'Idempotency-Key': 'k-1' },
    });
    expect(JSON.stringify(requests)).not.toContain('secret-key');
    expect(requests[1]?.requestId).toBe(requests[0]?.requestId);
    expect(responses.map((e) => [e.attempt, e.status, e.retryInMs])).toEqual([
      [1, 502, 250],
      [2, 201, undefined],
    ]);
    expect(responses[0]?.error).toMatchObject({ code: 'unexpected_response', status: 502 });
    expect(responses[1]?.error).toBeUndefined();
    expect(responses[1]?.response).toBe(created.response);
    expect(created.response.headers.get('RateLimit')).toBe('"default";r=9;t=60');
    expect(created.requestId).toBe('from-api');
  });

  it('tells onResponse when no answer came, and gives the raw Response of an error', async () => {
    const server = await scriptedServer((n, _req, res) => {
      if (n === 0) return res.socket?.destroy();
      answer(res, 404, errorJson(404, 'not_found'), { Deprecation: '@1767225600' });
    });
    const responses: ResponseEvent[] = [];
    const client = new AnimalStoreClient({
      baseUrl: `${server.origin}/v1`,
      apiKey: 'k',
      sleep: async () => {},
      onResponse: (event) => responses.push(event),
    });
    const error = (await client.pets.get(5).catch((e: unknown) => e)) as AnimalStoreError;
    expect(responses.map((e) => [e.status, e.error?.code])).toEqual([
      [0, 'network_error'],
      [404, 'not_found'],
    ]);
    expect(responses[0]?.response).toBeUndefined();
    expect(error.response?.status).toBe(404);
    expect(error.response?.headers.get('Deprecation')).toBe('@1767225600');
  });

  it('gives each page’s raw Response', async () => {
    const server = await scriptedServer((_n, _req, res) =>
      answer(res, 200, [rex], {
        'Next-After': '1',
        Link: '</v1/pets?limit=1&after=1>; rel="next"',
      }),
    );
    const client = new AnimalStoreClient({ baseUrl: `${server.origin}/v1`, apiKey: 'k' });
    const page = await client.pets.listPage({ limit: 1 });
    expect(page.response.headers.get('Next-After')).toBe('1');
    expect(page.next).toEqual({ limit: 1, after: 1 });
  });
});
