import { describe, expect, it } from 'vitest';
import { FixedWindowRateLimiter } from '../src/http/rate-limit.js';
import { parseApiKeys, StaticApiKeys } from '../src/keys/api-key.js';
import { auth, errorBody, json, startTestApi, TEST_KEY } from './helpers/api.js';
import { readPage } from './helpers/store.js';

const OTHER_KEY = 'other-key-0123456789';

describe('FixedWindowRateLimiter', () => {
  function limiter(requests: number, windowSeconds: number, start = 0) {
    let now = start;
    const limit = new FixedWindowRateLimiter({ requests, windowSeconds }, () => now);
    return {
      limit,
      at(ms: number) {
        now = ms;
      },
    };
  }

  it('counts down the quota, then refuses with -1', () => {
    const { limit } = limiter(3, 60);
    expect([1, 2, 3, 4, 5].map(() => limit.take('a'))).toEqual([2, 1, 0, -1, -1]);
  });

  it('keeps one quota per key', () => {
    const { limit } = limiter(1, 60);
    expect(limit.take('a')).toBe(0);
    expect(limit.take('b')).toBe(0);
    expect(limit.take('a')).toBe(-1);
  });

  it('refills every quota when the window ends, windows aligned on the clock', () => {
    const { limit, at } = limiter(1, 60, 59_000);
    expect(limit.take('a')).toBe(0);
    expect(limit.resetSeconds()).toBe(1);
    at(59_999);
    expect(limit.take('a')).toBe(-1);
    at(60_000);
    expect(limit.take('a')).toBe(0);
    expect(limit.resetSeconds()).toBe(60);
  });

  it.each([
    [0, 60],
    [1, 60],
    [59_001, 1],
    [30_500, 30],
  ])('at %i ms reports %i s until the reset of a 60 s window', (now, seconds) => {
    const { limit } = limiter(10, 60, now);
    limit.take('a');
    expect(limit.resetSeconds()).toBe(seconds);
  });

  it('forgets idle keys when a window ends: memory holds only the current window', () => {
    const { limit, at } = limiter(10, 1);
    for (let i = 0; i < 1000; i++) limit.take(`key-${i}`);
    expect(limit.trackedKeys).toBe(1000);
    at(1000);
    limit.take('busy');
    expect(limit.trackedKeys).toBe(1);
  });
});

let now = Date.parse('2026-06-01T00:00:00Z'); // on a minute boundary
const api = await startTestApi({
  apiKeys: new StaticApiKeys(parseApiKeys(`${TEST_KEY},${OTHER_KEY}`)),
  rateLimit: { requests: 3, windowSeconds: 60 },
  clock: () => now,
});
const other = { Authorization: `Bearer ${OTHER_KEY}` };

describe('the rate limit over HTTP', () => {
  it('sends the policy and the quota left on every authenticated answer, errors included', async () => {
    now += 60_000;
    const ok = await fetch(`${api.base}/pets`, { headers: auth });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('ratelimit-policy')).toBe('"default";q=3;w=60');
    expect(ok.headers.get('ratelimit')).toBe('"default";r=2;t=60');
    now += 18_000;
    const invalid = await fetch(`${api.base}/pets?limit=0`, { headers: auth });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('ratelimit')).toBe('"default";r=1;t=42');
    const missing = await fetch(`${api.base}/pets/999999`, { headers: auth });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('ratelimit')).toBe('"default";r=0;t=42');
  });

  it('answers 429 rate_limited over the quota, Retry-After the reset time', async () => {
    const res = await fetch(`${api.base}/pets`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('42');
    expect(res.headers.get('ratelimit')).toBe('"default";r=0;t=42');
    expect(res.headers.get('ratelimit-policy')).toBe('"default";q=3;w=60');
    expect((await errorBody(res)).code).toBe('rate_limited');
    const pets = await readPage(api.store, { limit: 100 });
    expect(pets.pets).toHaveLength(0);
  });

  it('limits each key on its own', async () => {
    const res = await fetch(`${api.base}/pets`, { headers: other });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit')).toBe('"default";r=2;t=42');
  });

  it('neither counts nor marks requests without a valid key', async () => {
    for (const headers of [{}, { Authorization: 'Bearer wrong' }] as Record<string, string>[]) {
      const res = await fetch(`${api.base}/pets`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('ratelimit')).toBeNull();
      expect(res.headers.get('ratelimit-policy')).toBeNull();
    }
  });

  it('leaves the public endpoints alone', async () => {
    for (const path of ['/healthz', '/readyz', '/v1/openapi.json']) {
      const res = await fetch(`${api.origin}${path}`, { headers: auth });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('ratelimit'), path).toBeNull();
    }
  });

  it('serves the key again once the window ends', async () => {
    now += 42_000;
    const res = await fetch(`${api.base}/pets`, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit')).toBe('"default";r=2;t=60');
  });

  it('logs the 429 with the key name', () => {
    expect(api.logs).toContainEqual(
      expect.objectContaining({ msg: 'request', status: 429, key: expect.stringMatching(/^env:/) }),
    );
  });
});

describe('without a rate limit', () => {
  it('sends no rate-limit fields', async () => {
    const plain = await startTestApi();
    const res = await fetch(`${plain.base}/pets`, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit')).toBeNull();
    expect(res.headers.get('ratelimit-policy')).toBeNull();
  });
});
