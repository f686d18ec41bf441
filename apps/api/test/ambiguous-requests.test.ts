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
