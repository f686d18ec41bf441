import {
  BODY_LIMIT_BYTES,
  GET_PET_SUNSET_AT,
  IDEMPOTENCY_KEY_TTL_MS,
} from '@animal-store/contract';
import { describe, expect, it } from 'vitest';
import { MemoryPetStore } from '../src/store/memory-pet-store.js';
import {
  auth,
  errorBody,
  json,
  type PetBody,
  read,
  startTestApi,
  TEST_KEY,
} from './helpers/api.js';
import { exchange, parseResponses, type RawResponse } from './helpers/raw-http.js';
import { sample, scrape } from './helpers/scrape.js';

// What a user notices when the request path goes wrong in a small way: each test here failed
// against a mutant of the request path that every other test let through (`pnpm mutate`,
// CONTRIBUTING.md).

let now = Date.parse('2026-06-01T00:00:00Z');
const clock = () => now;
const api = await startTestApi({ store: new MemoryPetStore({ clock }), clock });
const host = new URL(api.origin).host;

/** A keyed `POST /v1/pets` head for a raw exchange, with `framing` (and the blank line). */
const createHead = (...framing: string[]) =>
  `${[
    'POST /v1/pets HTTP/1.1',
    `Host: ${host}`,
    `Authorization: Bearer ${TEST_KEY}`,
    'Content-Type: application/json',
    ...framing,
  ].join('\r\n')}\r\n\r\n`;

/** The one response a raw exchange got. */
function onlyResponse(data: Buffer): RawResponse {
  const responses = parseResponses(data);
  expect(responses).toHaveLength(1);
  return responses[0] as RawResponse;
}

describe('keyed requests', () => {
  it.each([
    'Cache-Control',
    'If-None-Match',
    'Accept-Ranges',
  ])('answers a request with a %s header (as long as Authorization) as usual', async (name) => {
    const res = await fetch(`${api.base}/pets`, { headers: { ...auth, [name]: 'no-cache' } });
    expect(res.status).toBe(200);
  });
});

describe('request bodies', () => {
  it('creates a pet from a valid chunked body', async () => {
    const body = JSON.stringify({ name: 'Chunky', categoryId: 3 });
    const head = createHead('Transfer-Encoding: chunked', 'Connection: close');
    const half = Math.floor(body.length / 2);
    const chunk = (text: string) => `${text.length.toString(16)}\r\n${text}\r\n`;
    const { data } = await exchange(api.origin, [
      head,
      chunk(body.slice(0, half)),
      `${chunk(body.slice(half))}0\r\n\r\n`,
    ]);
    const response = onlyResponse(data);
    expect(response.status).toBe(201);
    expect(JSON.parse(response.body)).toEqual({
      id: expect.any(Number),
      name: 'Chunky',
      categoryId: 3,
      status: 'available',
    });
  });

  it('answers a body cut short by the client 400 with an Error body, never 500', async () => {
    const { data } = await exchange(api.origin, `${createHead('Content-Length: 40')}{"name":"Cut`, {
      end: true,
      waitMs: 120_000,
    });
    const response = onlyResponse(data);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({ status: 400, message: expect.any(String) });
  });
});

describe('idempotency keys', () => {
  it('replays a key until 24 hours after its first use, then creates anew', async () => {
    const start = now;
    const create = () =>
      fetch(`${api.base}/pets`, {
        method: 'POST',
        headers: { ...json, 'Idempotency-Key': 'day-old' },
        body: JSON.stringify({ name: 'Daily', categoryId: 1 }),
      });
    const first = await create();
    expect(first.status).toBe(201);
    const pet = await read<PetBody>(first);
    now = start + IDEMPOTENCY_KEY_TTL_MS - 1;
    const replay = await create();
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(await read<PetBody>(replay)).toEqual(pet);
    now = start + IDEMPOTENCY_KEY_TTL_MS;
    const fresh = await create();
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('idempotency-replayed')).toBeNull();
    expect((await read<PetBody>(fresh)).id).toBeGreaterThan(pet.id);
  });
});

describe('list query', () => {
  it.each([
    'limit=1e1',
    'limit=0x10',
    'limit=+10',
    'limit=10.0',
    'limit= 10',
    'limit=10%20',
    'after=1e1',
    'after=0x10',
  ])('refuses %s: integers are decimal digits only', async (query) => {
    const res = await fetch(`${api.base}/pets?${query}`, { headers: auth });
    expect(res.status).toBe(400);
    const body = await errorBody(res);
    expect(body.code).toBe('validation_failed');
    expect(body.details?.[0]?.path).toBe(query.slice(0, query.indexOf('=')));
  });

  it('repeats every parameter of the query in the next-page link', async () => {
    for (let i = 0; i < 8; i++) {
      await fetch(`${api.base}/pets`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ name: `Sold ${i}`, categoryId: 1, status: 'sold' }),
      });
    }
    const res = await fetch(`${api.base}/pets?status=sold&limit=3`, { headers: auth });
    const pets = await read<PetBody[]>(res);
    expect(pets).toHaveLength(3);
    const link = res.headers.get('link') ?? '';
    const target = /^<(\/v1\/pets\?[^>]*)>; rel="next"$/.exec(link)?.[1];
    expect(target, link).toBeDefined();
    const params = new URL(target as string, api.origin).searchParams;
    expect(Object.fromEntries(params)).toEqual({
      limit: '3',
      status: 'sold',
      after: String(pets.at(-1)?.id),
    });
    expect([...params.keys()]).toHaveLength(3);
  });
});

describe('Error answers', () => {
  const post = (headers: Record<string, string>, body: string | Uint8Array): RequestInit => ({
    method: 'POST',
    headers,
    body,
  });
  it.each<[string, string, RequestInit, number, string, RegExp]>([
    ['no key', '/pets', {}, 401, 'unauthorized', /API key/],
    [
      'a malformed key',
      '/pets',
      { headers: { Authorization: 'Basic x' } },
      401,
      'unauthorized',
      /Bearer/,
    ],
    [
      'an unknown key',
      '/pets',
      { headers: { Authorization: 'Bearer nope' } },
      401,
      'unauthorized',
      /API key/,
    ],
    ['an unknown path', '/pots', { headers: auth }, 404, 'not_found', /\/v1\/pots/],
    ['an absent pet', '/pets/999999', { headers: auth }, 404, 'not_found', /999999/],
    [
      'a method the path does not take',
      '/pets',
      { method: 'DELETE', headers: auth },
      405,
      'method_not_allowed',
      /DELETE/,
    ],
    [
      'a text body',
      '/pets',
      post({ ...auth, 'Content-Type': 'text/plain' }, '{}'),
      415,
      'unsupported_media_type',
      /application\/json/,
    ],
    [
      'a compressed body',
      '/pets',
      post({ ...json, 'Content-Encoding': 'gzip' }, '{}'),
      415,
      'unsupported_media_type',
      /Content-Encoding/,
    ],
    [
      'a Latin-1 body',
      '/pets',
      post({ ...auth, 'Content-Type': 'application/json; charset=latin1' }, '{}'),
      415,
      'unsupported_media_type',
      /UTF-8/,
    ],
    ['a blank body', '/pets', post(json, '  '), 400, 'validation_failed', /required/],
    ['a body that is not JSON', '/pets', post(json, '{"name":'), 400, 'malformed_json', /JSON/],
    [
      'a body that is not UTF-8',
      '/pets',
      post(json, new Uint8Array([0x7b, 0xff, 0x7d])),
      400,
      'malformed_json',
      /UTF-8/,
    ],
    [
      'a body too large',
      '/pets',
      post(json, `"${'x'.repeat(20_000)}"`),
      413,
      'payload_too_large',
      /bytes/,
    ],
    [
      'an invalid pet',
      '/pets',
      post(json, '{"name":"Rex"}'),
      400,
      'validation_failed',
      /categoryId/,
    ],
    ['a bad petId', '/pets/abc', { headers: auth }, 400, 'validation_failed', /petId/],
    ['a bad limit', '/pets?limit=0', { headers: auth }, 400, 'validation_failed', /limit/],
  ])('answers %s with a message that says what is wrong', async (_, path, init, status, code, says) => {
    const res = await fetch(`${api.base}${path}`, init);
    expect(res.status).toBe(status);
    const body = await errorBody(res);
    expect(body.code).toBe(code);
    expect(body.message).toMatch(says);
    if (status === 405) expect(res.headers.get('allow')).toMatch(/GET.*POST/);
  });

  it('answers a key reused with another body 422 with a message naming the key', async () => {
    const send = (name: string) =>
      fetch(
        `${api.base}/pets`,
        post({ ...json, 'Idempotency-Key': 'reused' }, JSON.stringify({ name, categoryId: 1 })),
      );
    expect((await send('One')).status).toBe(201);
    const res = await send('Other');
    expect(res.status).toBe(422);
    const body = await errorBody(res);
    expect(body.code).toBe('idempotency_key_reused');
    expect(body.message).toMatch(/Idempotency-Key|key/);
  });
});

describe('405 answers', () => {
  it.each([
    'DELETE',
    'PUT',
    'PATCH',
    'PROPFIND',
  ])('answer %s on /v1/pets with Allow naming the methods it takes', async (method) => {
    const { data } = await exchange(
      api.origin,
      `${method} /v1/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TEST_KEY}\r\nConnection: close\r\n\r\n`,
      { waitMs: 120_000 },
    );
    const response = onlyResponse(data);
    expect(response.status).toBe(405);
    expect(response.headers.allow?.split(/, */).sort()).toEqual(['GET', 'HEAD', 'POST']);
  });
});

describe('what an Error answer says', () => {
  /** The Error body of the one response a raw exchange got. */
  const onlyErrorBody = (data: Buffer, status: number) => {
    const response = onlyResponse(data);
    expect(response.status).toBe(status);
    return JSON.parse(response.body) as { code: string; message: string; details?: unknown[] };
  };

  it.each([
    ['no body at all', ''],
    ['a blank body', ' \n '],
  ])('names the body itself as required for %s', async (_, body) => {
    const res = await fetch(`${api.base}/pets`, { method: 'POST', headers: json, body });
    expect(res.status).toBe(400);
    const error = await errorBody(res);
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual([{ path: '', message: 'is required' }]);
  });

  it('says a body without a Content-Type is untyped', async () => {
    const res = await fetch(`${api.base}/pets`, {
      method: 'POST',
      headers: auth,
      body: new TextEncoder().encode('{"name":"Rex","categoryId":1}'),
    });
    expect(res.status).toBe(415);
    expect((await errorBody(res)).message).toBe(
      'request body must be application/json, not untyped',
    );
  });

  it('names a repeated Idempotency-Key and what is wrong with it', async () => {
    const { data } = await exchange(
      api.origin,
      `${createHead('Idempotency-Key: one', 'Idempotency-Key: two', 'Content-Length: 2', 'Connection: close')}{}`,
      { waitMs: 120_000 },
    );
    const error = onlyErrorBody(data, 400);
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual([{ path: 'Idempotency-Key', message: 'must be sent once' }]);
  });

  it('gives the limit a request target exceeds', async () => {
    const res = await fetch(`${api.base}/pets?status=${'x'.repeat(9000)}`, { headers: auth });
    expect(res.status).toBe(414);
    expect((await errorBody(res)).message).toBe('request target exceeds 8192 bytes');
  });

  it('gives the limit a chunked body exceeds', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(BODY_LIMIT_BYTES), categoryId: 1 });
    const { data } = await exchange(
      api.origin,
      [
        createHead('Transfer-Encoding: chunked', 'Connection: close'),
        `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
      ],
      { waitMs: 120_000 },
    );
    const error = onlyErrorBody(data, 413);
    expect(error.code).toBe('payload_too_large');
    expect(error.message).toBe(`request body exceeds ${BODY_LIMIT_BYTES} bytes`);
  });

  it('answers a body declared beyond the limit 413 at once, without waiting for it', async () => {
    const { data } = await exchange(
      api.origin,
      `${createHead(`Content-Length: ${BODY_LIMIT_BYTES + 1}`, 'Connection: close')}{"name":`,
      { waitMs: 120_000 },
    );
    const error = onlyErrorBody(data, 413);
    expect(error.message).toBe(`request body exceeds ${BODY_LIMIT_BYTES} bytes`);
  });

  it('points a getPet after its sunset to the list that replaces it', async () => {
    const before = now;
    now = GET_PET_SUNSET_AT.getTime();
    try {
      const res = await fetch(`${api.base}/pets/1`, { headers: auth });
      expect(res.status).toBe(410);
      const error = await errorBody(res);
      expect(error.code).toBe('gone');
      expect(error.message).toContain(GET_PET_SUNSET_AT.toUTCString());
      expect(error.message).toContain('GET /v1/pets?status=');
    } finally {
      now = before;
    }
  });

  it("answers a body slower than the API's own limit with that limit, before Node's timeout", async () => {
    const slow = await startTestApi(
      { store: new MemoryPetStore(), bodyTimeoutMs: 300 },
      { requestTimeoutMs: 600_000 },
    );
    try {
      const { data } = await exchange(slow.origin, `${createHead('Content-Length: 100')}{"name":`, {
        waitMs: 120_000,
      });
      const error = onlyErrorBody(data, 408);
      expect(error.code).toBe('request_timeout');
      expect(error.message).toBe('request body did not arrive within 300 ms');
      // The rest of a body that came too slowly is not waited for.
      expect(parseResponses(data)[0]?.headers.connection).toBe('close');
    } finally {
      await slow.close();
    }
  });
});

describe('refused requests in the metrics', () => {
  it.each([
    ['missing', {}],
    ['malformed', { Authorization: 'Basic dXNlcjpwdw==' }],
    ['unknown', { Authorization: 'Bearer not-a-key' }],
  ])('counts a request refused as %s by its reason', async (reason, headers) => {
    const count = async () => sample(await scrape(api.origin), 'auth_failures_total', { reason });
    const before = await count();
    expect((await fetch(`${api.base}/pets`, { headers })).status).toBe(401);
    expect(await count()).toBe((before ?? 0) + 1);
  });

  it('counts two Authorization headers as a bad request, not as a failed authentication', async () => {
    const counted = async () => {
      const text = await scrape(api.origin);
      return ['missing', 'malformed', 'unknown', 'revoked'].map(
        (reason) => sample(text, 'auth_failures_total', { reason }) ?? 0,
      );
    };
    const before = await counted();
    const { data } = await exchange(
      api.origin,
      `GET /v1/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TEST_KEY}\r\n` +
        `Authorization: Bearer ${TEST_KEY}\r\nConnection: close\r\n\r\n`,
      { waitMs: 120_000 },
    );
    expect(onlyResponse(data).status).toBe(400);
    expect(await counted()).toEqual(before);
    const text = await scrape(api.origin);
    expect(text).not.toMatch(/auth_failures_total\{reason="undefined"\}/);
  });
});
