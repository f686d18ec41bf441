import { describe, expect, it } from 'vitest';
import { digestKey, parseApiKeys, StaticApiKeys } from '../src/keys/api-key.js';
import { startTestApi } from './helpers/api.js';

// Two keys whose SHA-256 digests share their first 8 hex digits (`aa16f648`).
const FIRST = 'tfdc9c076cb882603ff6533bf';
const SECOND = 't6fdfc307c0feba2934df5fea';

const keys = () => new StaticApiKeys(parseApiKeys(`${FIRST},${SECOND}`));
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

describe('two keys whose digests share a short prefix', () => {
  it('share that prefix (the premise of these tests)', () => {
    expect(digestKey(FIRST).slice(0, 8)).toBe(digestKey(SECOND).slice(0, 8));
    expect(digestKey(FIRST)).not.toBe(digestKey(SECOND));
  });

  it('are two callers: an Idempotency-Key of one is never replayed to the other', async () => {
    const api = await startTestApi({ apiKeys: keys() });
    const create = (key: string) =>
      fetch(`${api.base}/pets`, {
        method: 'POST',
        headers: { ...bearer(key), 'Content-Type': 'application/json', 'Idempotency-Key': 'k1' },
        body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
      });
    const first = await create(FIRST);
    const second = await create(SECOND);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers.get('idempotency-replayed')).toBeNull();
    const [a, b] = [
      (await first.json()) as { id: number },
      (await second.json()) as { id: number },
    ];
    expect(b.id).not.toBe(a.id);
  });

  it('have a rate-limit quota each', async () => {
    const api = await startTestApi({
      apiKeys: keys(),
      rateLimit: { requests: 1, windowSeconds: 3600 },
    });
    const get = (key: string) => fetch(`${api.base}/pets`, { headers: bearer(key) });
    expect((await get(FIRST)).status).toBe(200);
    expect((await get(FIRST)).status).toBe(429);
    expect((await get(SECOND)).status).toBe(200);
  });
});
