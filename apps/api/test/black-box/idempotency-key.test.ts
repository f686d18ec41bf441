import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { parseApiKeys, StaticApiKeys } from '../../src/keys/api-key.js';
import { errorBody, json, read, startTestApi, TEST_KEY } from '../helpers/api.js';
import { readPage } from '../helpers/store.js';

const OTHER_KEY = 'other-client-key';
const api = await startTestApi({
  apiKeys: new StaticApiKeys(parseApiKeys(`${TEST_KEY},${OTHER_KEY}`)),
});

let unique = 0;
/** A name no other test uses, so pets can be counted by name. */
const uniqueName = () => `idem-${++unique}`;

const post = (body: string, key?: string, headers: Record<string, string> = json) =>
  fetch(`${api.base}/pets`, {
    method: 'POST',
    headers: key === undefined ? headers : { ...headers, 'Idempotency-Key': key },
    body,
  });

async function countNamed(name: string): Promise<number> {
  return (await readPage(api.store, { limit: 1000 })).pets.filter((p) => p.name === name).length;
}

describe('POST /v1/pets with an Idempotency-Key', () => {
  it('answers a repeat with the first 201 again (body, Location) and creates nothing', async () => {
    const name = uniqueName();
    const body = JSON.stringify({ name, categoryId: 2 });
    const first = await post(body, 'retry-me-1');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotency-replayed')).toBeNull();
    const pet = await read(first);
    for (let i = 0; i < 3; i++) {
      const again = await post(body, 'retry-me-1');
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotency-replayed')).toBe('true');
      expect(again.headers.get('location')).toBe(first.headers.get('location'));
      expect(await read(again)).toEqual(pet);
    }
    expect(await countNamed(name)).toBe(1);
  });

  it('answers 422 idempotency_key_reused for the key with another body, creating nothing', async () => {
    const name = uniqueName();
    expect((await post(JSON.stringify({ name, categoryId: 1 }), 'reused-1')).status).toBe(201);
    for (const other of [
      JSON.stringify({ name: `${name}-other`, categoryId: 1 }),
      // The fingerprint is of the exact bytes: the same JSON spaced differently is another body.
      JSON.stringify({ name, categoryId: 1 }, null, 1),
    ]) {
      const res = await post(other, 'reused-1');
      expect(res.status).toBe(422);
      const error = await errorBody(res);
      expect(error.code).toBe('idempotency_key_reused');
      expect(error.message).toContain('Idempotency-Key');
    }
    expect(await countNamed(name)).toBe(1);
    expect(await countNamed(`${name}-other`)).toBe(0);
  });

  it('keeps the keys of different API keys apart', async () => {
    const name = uniqueName();
    const body = JSON.stringify({ name, categoryId: 1 });
    const mine = await read(post(body, 'shared-key'));
    const theirs = await post(body, 'shared-key', {
      ...json,
      Authorization: `Bearer ${OTHER_KEY}`,
    });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotency-replayed')).toBeNull();
    expect((await read(theirs)).id).not.toBe(mine.id);
    expect(await countNamed(name)).toBe(2);
  });

  it('remembers nothing of a request refused before the create', async () => {
    const name = uniqueName();
    const bad = await post(JSON.stringify({ name, categoryId: 0 }), 'fix-and-retry');
    expect(bad.status).toBe(400);
    const fixed = await post(JSON.stringify({ name, categoryId: 1 }), 'fix-and-retry');
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotency-replayed')).toBeNull();
  });

  it('creates a pet for every request without a key, as before', async () => {
    const name = uniqueName();
    const body = JSON.stringify({ name, categoryId: 1 });
    const ids = [(await read(post(body))).id, (await read(post(body))).id];
    expect(new Set(ids).size).toBe(2);
  });

  it.each([
    ['the shortest key', 'k'],
    ['255 characters', 'k'.repeat(255)],
    ['a UUID', '8e03978e-40d5-43e8-bc93-6894a57f9324'],
    ['spaces and punctuation inside', 'order 42: "first" try!'],
  ])('accepts %s', async (_, key) => {
    const res = await post(JSON.stringify({ name: uniqueName(), categoryId: 1 }), key);
    expect(res.status).toBe(201);
  });

  it.each([
    ['an empty key', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a non-ASCII character', 'caf\u00e9'],
    ['a tab', 'a\tb'],
  ])('answers 400 naming the header for %s, creating nothing', async (_, key) => {
    const name = uniqueName();
    const res = await post(JSON.stringify({ name, categoryId: 1 }), key);
    expect(res.status).toBe(400);
    const error = await errorBody(res);
    expect(error.code).toBe('validation_failed');
    expect(error.message).toContain('Idempotency-Key');
    expect(error.details?.map((d) => d.path)).toEqual(['Idempotency-Key']);
    expect(await countNamed(name)).toBe(0);
  });

  it('answers 400 for a key sent twice', async () => {
    const url = new URL(`${api.base}/pets`);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(url, { method: 'POST' }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      for (const [name, value] of Object.entries(json)) req.setHeader(name, value);
      req.setHeader('Idempotency-Key', ['first', 'second']);
      req.end(JSON.stringify({ name: uniqueName(), categoryId: 1 }));
    });
    expect(status).toBe(400);
  });

  it('answers 401 before looking at the key', async () => {
    const res = await post('{}', '', { 'Content-Type': 'application/json' });
    expect(res.status).toBe(401);
  });
});
