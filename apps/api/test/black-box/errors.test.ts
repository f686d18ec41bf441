import { describe, expect, it } from 'vitest';
import { MemoryPetStore } from '../../src/store/memory-pet-store.js';
import { StoreUnavailableError } from '../../src/store/pet-store.js';
import { auth, errorBody, json, startTestApi } from '../helpers/api.js';

const api = await startTestApi();

/** A store whose every call fails the given way. */
function failingStore(error: () => Error): MemoryPetStore {
  const store = new MemoryPetStore();
  const fail = async () => {
    throw error();
  };
  return Object.assign(store, {
    list: fail,
    listJson: fail,
    get: fail,
    getJson: fail,
    create: fail,
    ping: fail,
  });
}

describe('error responses', () => {
  it('answers 404 not_found for an unknown route', async () => {
    for (const path of ['/v1/nope', '/nope', '/v1/pets/1/extra', '/v2/pets']) {
      const res = await fetch(`${api.origin}${path}`, { headers: auth });
      expect(res.status, path).toBe(404);
      expect((await errorBody(res)).code).toBe('not_found');
    }
  });

  it('answers 405 with Allow for a wrong method', async () => {
    const res = await fetch(`${api.base}/pets`, { method: 'DELETE', headers: auth });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')?.split(/,\s*/).sort()).toEqual(['GET', 'HEAD', 'POST']);
    expect((await errorBody(res)).code).toBe('method_not_allowed');
    const one = await fetch(`${api.base}/pets/1`, { method: 'PUT', headers: json, body: '{}' });
    expect(one.status).toBe(405);
    expect(one.headers.get('allow')).toContain('GET');
  });

  it('answers 500 internal_error without leaking internals', async () => {
    const broken = await startTestApi({
      store: failingStore(() => new Error('secret driver detail at /srv/db.js:42')),
    });
    const res = await fetch(`${broken.base}/pets`, { headers: auth });
    expect(res.status).toBe(500);
    const text = await res.clone().text();
    expect(text).not.toContain('secret driver detail');
    expect(text).not.toContain('db.js');
    expect(await errorBody(res)).toEqual({
      code: 'internal_error',
      message: 'internal server error',
      status: 500,
    });
  });

  it('answers 503 with Retry-After while the store is unavailable', async () => {
    const down = await startTestApi({
      store: failingStore(() => new StoreUnavailableError('connection refused 10.0.0.1')),
    });
    for (const [method, path, body] of [
      ['GET', '/pets', undefined],
      ['POST', '/pets', '{"name":"Rex","categoryId":1}'],
      ['GET', '/pets/1', undefined],
    ] as const) {
      const res = await fetch(`${down.base}${path}`, { method, headers: json, body });
      expect(res.status, `${method} ${path}`).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      const error = await errorBody(res);
      expect(error.code).toBe('service_unavailable');
      expect(error.message).not.toContain('10.0.0.1');
    }
  });

  it('sends JSON and a request id on every response', async () => {
    const responses = await Promise.all([
      fetch(`${api.base}/pets`, { headers: auth }),
      fetch(`${api.base}/pets`),
      fetch(`${api.origin}/nowhere`),
      fetch(`${api.base}/openapi.json`),
      fetch(`${api.origin}/healthz`),
    ]);
    for (const res of responses) {
      expect(res.headers.get('content-type'), res.url).toBe('application/json; charset=utf-8');
      expect(res.headers.get('x-request-id'), res.url).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('echoes a sane X-Request-Id and replaces an insane one', async () => {
    const sane = await fetch(`${api.base}/pets`, {
      headers: { ...auth, 'X-Request-Id': 'abc-123' },
    });
    expect(sane.headers.get('x-request-id')).toBe('abc-123');
    const insane = await fetch(`${api.base}/pets`, {
      headers: { ...auth, 'X-Request-Id': 'a b"<script>' },
    });
    expect(insane.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
