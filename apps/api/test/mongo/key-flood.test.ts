import { uniqueDbName } from '@animal-store/test-db';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { generateApiKey } from '../../src/keys/api-key.js';
import { ApiKeyRegistry } from '../../src/keys/api-key-registry.js';
import { MongoApiKeys } from '../../src/keys/mongo-api-keys.js';
import { MemoryPetStore } from '../../src/store/memory-pet-store.js';
import { startTestApi } from '../helpers/api.js';

const CACHE_MS = 5_000;
const client = new MongoClient(inject('mongoUri'), { monitorCommands: true });
const db = client.db(uniqueDbName());
/** Every query of the `api_keys` collection. */
let keyQueries = 0;
client.on('commandStarted', (event) => {
  if (event.commandName === 'find' && event.command.find === 'api_keys') keyQueries++;
});
afterAll(async () => {
  await db.dropDatabase();
  await client.close();
});

describe('a flood of made-up API keys from one address (MongoDB)', () => {
  it('locks no valid key out and costs the database no lookup per key', async () => {
    const registry = await ApiKeyRegistry.open(db);
    const names = Array.from({ length: 5 }, (_, i) => `client-${i}`);
    const valid = await Promise.all(names.map((name) => registry.create(name)));
    await registry.create('revoked');
    const revoked = await registry.revoke('revoked');
    expect(revoked?.revokedAt).not.toBeNull();
    // The process's clock stands still: its copy of the keys stays young however slow the
    // machine is, so every query the flood caused would show.
    const apiKeys = await MongoApiKeys.open(db, { cacheMs: CACHE_MS, now: () => 0 });
    const api = await startTestApi({ store: new MemoryPetStore(), apiKeys });
    const get = (key: string) =>
      fetch(`${api.base}/pets`, { headers: { Authorization: `Bearer ${key}` } });
    const queriesAtStart = keyQueries;

    // Thousands of made-up keys of the issued shape (and some of no shape) from 127.0.0.1.
    const statuses = new Map<number, number>();
    for (let batch = 0; batch < 30; batch++) {
      const keys = Array.from({ length: 100 }, (_, i) =>
        i % 10 === 0 ? `guess-${batch}-${i}` : generateApiKey(),
      );
      for (const res of await Promise.all(keys.map(get))) {
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        await res.body?.cancel();
      }
    }
    expect(Object.fromEntries(statuses)).toEqual({ 401: 3000 });

    // Then every valid key, none of which this process has been shown, answers 200 at once.
    const answers = await Promise.all(valid.map(get));
    expect(answers.map((res) => res.status)).toEqual(valid.map(() => 200));
    expect(keyQueries - queriesAtStart).toBe(0);
  });

  it('takes a new key and a revocation within cacheMs, with one query per copy', async () => {
    const registry = await ApiKeyRegistry.open(db);
    const soonRevoked = await registry.create('soon-revoked');
    let now = 0;
    const apiKeys = await MongoApiKeys.open(db, { cacheMs: CACHE_MS, now: () => now });
    const api = await startTestApi({ store: new MemoryPetStore(), apiKeys });
    const get = async (key: string) =>
      (await fetch(`${api.base}/pets`, { headers: { Authorization: `Bearer ${key}` } })).status;
    const later = await registry.create('later');
    await registry.revoke('soon-revoked');
    const queriesAtStart = keyQueries;
    const flood = () => Promise.all(Array.from({ length: 200 }, () => get(generateApiKey())));

    // Within cacheMs the copy loaded at start answers.
    expect([await get(later), await get(soonRevoked)]).toEqual([401, 200]);
    now = CACHE_MS + 1;
    expect(new Set(await flood())).toEqual(new Set([401]));
    expect([await get(later), await get(soonRevoked)]).toEqual([200, 401]);
    expect(keyQueries - queriesAtStart).toBe(1);
  });
});
