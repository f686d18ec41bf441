import { describe, expect, it } from 'vitest';
import { CORS_EXPOSED_HEADERS, parseCorsOrigins } from '../src/http/cors.js';
import { auth, startTestApi } from './helpers/api.js';

const PAGE = 'http://127.0.0.1:5173';
const OTHER = 'http://127.0.0.1:5174';

function preflight(base: string, origin: string, headers = 'authorization,content-type') {
  return fetch(`${base}/pets`, {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': headers,
    },
  });
}

describe('CORS_ORIGINS', () => {
  it('reads a comma list of origins, * alone, or nothing', () => {
    expect(parseCorsOrigins('')).toEqual([]);
    expect(parseCorsOrigins(' https://app.example , http://127.0.0.1:5173 ')).toEqual([
      'https://app.example',
      'http://127.0.0.1:5173',
    ]);
    expect(parseCorsOrigins('*')).toEqual(['*']);
  });

  it.each([
    'https://app.example/',
    'https://app.example/path',
    'app.example',
    'ftp://app.example',
    'https://APP.example',
    '*,https://app.example',
  ])('refuses %j', (raw) => {
    expect(() => parseCorsOrigins(raw)).toThrow(/CORS_ORIGINS/);
  });
});

describe('without CORS_ORIGINS', async () => {
  const api = await startTestApi();

  it('sends no CORS header: browsers keep answers from other origins', async () => {
    const answer = await preflight(api.base, PAGE);
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    const list = await fetch(`${api.base}/pets`, { headers: { ...auth, Origin: PAGE } });
    expect(list.status).toBe(200);
    expect(list.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('with CORS_ORIGINS listing one origin', async () => {
  const api = await startTestApi({
    corsOrigins: [PAGE],
    rateLimit: { requests: 100, windowSeconds: 60 },
  });

  it('answers a preflight without a key, allowing the API’s request headers and methods', async () => {
    const answer = await preflight(api.base, PAGE, 'authorization,content-type,idempotency-key');
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(answer.headers.get('access-control-allow-methods')).toBe('GET,HEAD,POST');
    const allowed = answer.headers.get('access-control-allow-headers')?.toLowerCase().split(',');
    expect(allowed).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'idempotency-key']),
    );
    expect(answer.headers.get('access-control-max-age')).toBe('600');
    expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
    expect(answer.headers.get('vary')).toMatch(/Origin/);
    expect(answer.headers.get('x-request-id')).toBeTruthy();
  });

  it('lets the page read every header the API documents on an answer', async () => {
    const list = await fetch(`${api.base}/pets`, { headers: { ...auth, Origin: PAGE } });
    expect(list.status).toBe(200);
    expect(list.headers.get('access-control-allow-origin')).toBe(PAGE);
    const exposed = list.headers.get('access-control-expose-headers')?.split(',');
    expect(exposed).toEqual([...CORS_EXPOSED_HEADERS]);
    for (const name of ['Location', 'RateLimit', 'Retry-After', 'Idempotency-Replayed', 'Sunset']) {
      expect(exposed).toContain(name);
    }
  });

  it('lets the page read a 401 (the Error body tells it why)', async () => {
    const refused = await fetch(`${api.base}/pets`, { headers: { Origin: PAGE } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(((await refused.json()) as { code: string }).code).toBe('unauthorized');
  });

  it.each([
    '/metrics',
    '/readyz',
    '/healthz',
  ])('gives %s no CORS header: a page cannot read it', async (path) => {
    const answer = await fetch(`${api.origin}${path}`, { headers: { Origin: PAGE } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(answer.headers.get('vary')).toBeNull();
    const ask = await fetch(`${api.origin}${path}`, {
      method: 'OPTIONS',
      headers: { Origin: PAGE, 'Access-Control-Request-Method': 'GET' },
    });
    expect(ask.headers.get('access-control-allow-origin')).toBeNull();
    expect(ask.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('gives an origin not listed no CORS header, on the preflight and on the answer', async () => {
    const answer = await preflight(api.base, OTHER);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(answer.headers.get('access-control-allow-methods')).toBeNull();
    const list = await fetch(`${api.base}/pets`, { headers: { ...auth, Origin: OTHER } });
    expect(list.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('with CORS_ORIGINS=*', async () => {
  const api = await startTestApi({ corsOrigins: ['*'] });

  it('allows any origin, never with credentials', async () => {
    const answer = await preflight(api.base, OTHER);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
    const list = await fetch(`${api.base}/pets`, { headers: { ...auth, Origin: PAGE } });
    expect(list.headers.get('access-control-allow-origin')).toBe('*');
    const document = await fetch(`${api.base}/openapi.json`, { headers: { Origin: PAGE } });
    expect(document.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('still gives the probes and /metrics none', async () => {
    for (const path of ['/metrics', '/readyz', '/healthz']) {
      const answer = await fetch(`${api.origin}${path}`, { headers: { Origin: PAGE } });
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    }
  });
});
