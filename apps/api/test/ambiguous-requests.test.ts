import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { auth, errorBody, json, parseErrorBody, startTestApi, TEST_KEY } from './helpers/api.js';
import { exchange, parseResponses } from './helpers/raw-http.js';

const api = await startTestApi();
const host = new URL(api.origin).host;

describe('a request the API cannot read one way only', () => {
  it.each([
    [
      'even when both hold a valid key',
      [`Authorization: Bearer ${TEST_KEY}`, 'Authorization: Bearer someone-else-entirely'],
    ],
    ['an empty one first', ['Authorization:', `Authorization: Bearer ${TEST_KEY}`]],
    ['an empty one last', [`Authorization: Bearer ${TEST_KEY}`, 'Authorization: ']],
  ])('refuses two Authorization headers with 400, %s', async (_, fields) => {
    const request = [
      'GET /v1/pets HTTP/1.1',
      `Host: ${host}`,
      ...fields,
      'Connection: close',
      '',
      '',
    ].join('\r\n');
    const { data } = await exchange(api.origin, request, { end: true });
    const [res] = parseResponses(data);
    expect(res?.status).toBe(400);
    const body = parseErrorBody(res?.headers['content-type'], res?.body ?? '', 400);
    expect(body.message).toMatch(/more than one Authorization header/);
  });

  it('refuses a gzip body with 415 and Accept-Encoding: identity, creating nothing', async () => {
    const res = await fetch(`${api.base}/pets`, {
      method: 'POST',
      headers: { ...json, 'Content-Encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ name: 'Zip', categoryId: 1 })),
    });
    expect(res.status).toBe(415);
    expect(res.headers.get('accept-encoding')).toBe('identity');
    expect((await errorBody(res)).code).toBe('unsupported_media_type');
    const listed = (await (
      await fetch(`${api.base}/pets?limit=100`, { headers: auth })
    ).json()) as {
      name: string;
    }[];
    expect(listed.map((p) => p.name)).not.toContain('Zip');
  });

  it.each([
    'bogus',
    'br',
    'gzip, identity',
  ])('refuses Content-Encoding: %s on plain JSON with 415', async (encoding) => {
    const res = await fetch(`${api.base}/pets`, {
      method: 'POST',
      headers: { ...json, 'Content-Encoding': encoding },
      body: JSON.stringify({ name: 'Plain', categoryId: 1 }),
    });
    expect(res.status).toBe(415);
    expect(res.headers.get('accept-encoding')).toBe('identity');
  });

  it('takes Content-Encoding: identity as no encoding', async () => {
    const res = await fetch(`${api.base}/pets`, {
      method: 'POST',
      headers: { ...json, 'Content-Encoding': 'identity' },
      body: JSON.stringify({ name: 'Ident', categoryId: 1 }),
    });
    expect(res.status).toBe(201);
  });
});

describe('framing and Host (RFC 9112)', () => {
  const chunkedCreate = (codings: string, name: string) => {
    const body = JSON.stringify({ name, categoryId: 1 });
    return (
      `POST /v1/pets HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TEST_KEY}\r\n` +
      `Content-Type: application/json\r\nTransfer-Encoding: ${codings}\r\n\r\n` +
      `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`
    );
  };
  const listedNames = async () =>
    (
      (await (await fetch(`${api.base}/pets?limit=100`, { headers: auth })).json()) as {
        name: string;
      }[]
    ).map((p) => p.name);

  it.each([
    'gzip, chunked',
    'GZIP,chunked',
    'identity, chunked',
  ])('refuses Transfer-Encoding: %s with 501, storing nothing, then closes', async (codings) => {
    const name = `Coded ${codings}`;
    const { data, closedByServer } = await exchange(api.origin, chunkedCreate(codings, name), {
      waitMs: 60_000,
    });
    const responses = parseResponses(data);
    expect(responses.map((r) => r.status)).toEqual([501]);
    const [res] = responses;
    expect(parseErrorBody(res?.headers['content-type'], res?.body ?? '', 501).code).toBe(
      'not_implemented',
    );
    expect(res?.headers.connection).toBe('close');
    expect(closedByServer).toBe(true);
    expect(await listedNames()).not.toContain(name);
  });

  it('reads a chunked body', async () => {
    const { data } = await exchange(api.origin, chunkedCreate('chunked', 'Chunked'), { end: true });
    expect(parseResponses(data)[0]?.status).toBe(201);
  });

  it('refuses chunked not last (Node’s parser) with 400, storing nothing', async () => {
    const { data } = await exchange(api.origin, chunkedCreate('chunked, gzip', 'Not last'), {
      waitMs: 60_000,
    });
    expect(parseResponses(data).map((r) => r.status)).toEqual([400]);
    expect(await listedNames()).not.toContain('Not last');
  });

  it.each([
    ['two Host headers', [`Host: ${host}`, `Host: ${host}`]],
    ['two different Host headers', [`Host: ${host}`, 'Host: evil.example']],
    ['a Host with a space', ['Host: a b']],
    ['a Host with userinfo and a path', ['Host: @evil/x']],
    ['a Host with a path', [`Host: ${host}/x`]],
    ['a Host with a bad port', ['Host: example.com:80x']],
  ])('refuses %s with 400', async (_, fields) => {
    const request = ['GET /healthz HTTP/1.1', ...fields, 'Connection: close', '', ''].join('\r\n');
    const { data } = await exchange(api.origin, request, { end: true });
    const [res] = parseResponses(data);
    expect(res?.status).toBe(400);
    expect(parseErrorBody(res?.headers['content-type'], res?.body ?? '', 400).code).toBe(
      'bad_request',
    );
  });

  it.each([
    host,
    'localhost',
    '[::1]:3000',
    'api.animal-store.example',
    'example.com:',
    'xn--bcher-kva.example',
  ])('answers Host: %s', async (value) => {
    const request = `GET /healthz HTTP/1.1\r\nHost: ${value}\r\nConnection: close\r\n\r\n`;
    const { data } = await exchange(api.origin, request, { end: true });
    expect(parseResponses(data)[0]?.status).toBe(200);
  });
});

describe('duplicate member names in a JSON body', () => {
  it.each([
    ['{"name":"Dup1","name":"Dup2","categoryId":1}', '/name', 'Dup2'],
    ['{"name":"Dup3","categoryId":"x","categoryId":1}', '/categoryId', 'Dup3'],
    [
      '{"name":"Dup4","categoryId":1,"status":"sold","st\\u0061tus":"available"}',
      '/status',
      'Dup4',
    ],
  ])('refuses %s with 400 validation_failed naming the member, storing nothing', async (body, path, name) => {
    const res = await fetch(`${api.base}/pets`, { method: 'POST', headers: json, body });
    expect(res.status).toBe(400);
    const error = await errorBody(res);
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual([{ path, message: expect.stringMatching(/more than once/) }]);
    const listed = (await (
      await fetch(`${api.base}/pets?limit=100`, { headers: auth })
    ).json()) as {
      name: string;
    }[];
    expect(listed.map((p) => p.name)).not.toContain(name);
  });

  it('accepts a name holding colons and quotes', async () => {
    const res = await fetch(`${api.base}/pets`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Rex: "the" dog', categoryId: 1 }),
    });
    expect(res.status).toBe(201);
  });
});

describe('headers on every answer', () => {
  it.each([
    ['a list', `/pets`, auth, 200],
    ['a pet that does not exist', `/pets/999999`, auth, 404],
    ['a request without a key', `/pets`, {}, 401],
  ] as const)('sends nosniff and no-store on %s', async (_, path, headers, status) => {
    const res = await fetch(`${api.base}${path}`, { headers });
    expect(res.status).toBe(status);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('sends nosniff on unauthenticated answers too (the OpenAPI document, an unknown route)', async () => {
    for (const path of ['/openapi.json', '/nowhere']) {
      const res = await fetch(`${api.base}${path}`);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
    }
  });
});
