import { uniqueDbName } from '@animal-store/test-db';
import { type Db, MongoClient } from 'mongodb';
import { afterAll, describe, expect, inject, it, onTestFinished, vi } from 'vitest';
import { digestKey, generateApiKey, parseApiKeys, StaticApiKeys } from '../../src/keys/api-key.js';
import { ApiKeyRegistry } from '../../src/keys/api-key-registry.js';
import { setUpApiKeys } from '../../src/keys/api-key-setup.js';
import { ChainedApiKeys } from '../../src/keys/chained-api-keys.js';
import { MongoApiKeys } from '../../src/keys/mongo-api-keys.js';
import { MemoryPetStore } from '../../src/store/memory-pet-store.js';
import { guarded } from '../../src/store/mongo-errors.js';
import { StoreUnavailableError } from '../../src/store/pet-store.js';
import { errorBody, startTestApi } from '../helpers/api.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';

const clients: MongoClient[] = [];
const names: string[] = [];
afterAll(async () => {
  const client = new MongoClient(inject('mongoUri'));
  for (const name of names) await client.db(name).dropDatabase();
  await Promise.all([client, ...clients].map((c) => c.close()));
});

/** A database of its own, dropped after the file, reached directly or through `uri`. */
async function freshDb(uri = inject('mongoUri')): Promise<Db> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 1_000 });
  clients.push(client);
  names.push(uniqueDbName());
  return client.db(names.at(-1));
}

describe('the api_keys collection', () => {
  it('holds a digest, name, createdAt and revokedAt per key, never the key', async () => {
    const db = await freshDb();
    const registry = await ApiKeyRegistry.open(db, () => Date.parse('2026-06-01T00:00:00Z'));
    const key = await registry.create('ci');
    const docs = await db
      .collection('api_keys')
      .find({}, { projection: { _id: 0 } })
      .toArray();
    expect(docs).toEqual([
      {
        name: 'ci',
        digest: digestKey(key),
        createdAt: new Date('2026-06-01T00:00:00Z'),
        revokedAt: null,
      },
    ]);
    expect(JSON.stringify(docs)).not.toContain(key);
  });

  it('has unique indexes on digest and on name', async () => {
    const db = await freshDb();
    await ApiKeyRegistry.open(db);
    const indexes = await db.collection('api_keys').indexes();
    const unique = indexes.filter((i) => i.unique).map((i) => i.key);
    expect(unique).toEqual(expect.arrayContaining([{ digest: 1 }, { name: 1 }]));
  });

  it('refuses a second key with a name already used, revoked or not', async () => {
    const registry = await ApiKeyRegistry.open(await freshDb());
    await registry.create('twice');
    await registry.revoke('twice');
    await expect(registry.create('twice')).rejects.toThrow(/a key named "twice" exists/);
  });

  it('revokes idempotently, keeping the first revocation time', async () => {
    let now = new Date('2026-06-01T00:00:00Z');
    const registry = await ApiKeyRegistry.open(await freshDb(), () => now.getTime());
    await registry.create('old');
    expect((await registry.revoke('old'))?.revokedAt).toEqual(now);
    const first = now;
    now = new Date('2026-06-02T00:00:00Z');
    expect((await registry.revoke('old'))?.revokedAt).toEqual(first);
    expect(await registry.revoke('nobody')).toBeUndefined();
  });
});

describe('MongoApiKeys', () => {
  it('knows a key by its name, and refuses unknown and revoked keys', async () => {
    const db = await freshDb();
    const registry = await ApiKeyRegistry.open(db);
    const good = await registry.create('good');
    const revoked = await registry.create('gone');
    await registry.revoke('gone');
    const keys = await MongoApiKeys.open(db, { cacheMs: 0 });
    expect(await keys.verify(good)).toEqual({ id: digestKey(good), name: 'good' });
    expect(await keys.verify(revoked)).toBe('revoked');
    expect(await keys.verify(generateApiKey())).toBeUndefined();
    expect(await keys.verify('as_not-a-key')).toBeUndefined();
  });

  it('takes a revocation once its copy of the keys is older than cacheMs', async () => {
    const db = await freshDb();
    const registry = await ApiKeyRegistry.open(db);
    const key = await registry.create('soon-revoked');
    let now = 0;
    const keys = await MongoApiKeys.open(db, { cacheMs: 5_000, now: () => now });
    expect(await keys.verify(key)).toEqual({ id: digestKey(key), name: 'soon-revoked' });
    await registry.revoke('soon-revoked');
    now = 5_000;
    expect(await keys.verify(key)).toEqual({ id: digestKey(key), name: 'soon-revoked' });
    now = 5_001;
    expect(await keys.verify(key)).toBe('revoked');
  });

  it('answers from its copy while it is young enough, then needs the database', async () => {
    const db = await freshDb();
    const key = await (await ApiKeyRegistry.open(db)).create('known');
    let now = 0;
    const keys = await MongoApiKeys.open(db, { cacheMs: 5_000, now: () => now });
    await db.dropDatabase();
    await db.client.close();
    // The database is gone for this client: the copy answers, known and unknown keys alike.
    expect(await keys.verify(key)).toMatchObject({ name: 'known' });
    expect(await keys.verify(generateApiKey())).toBeUndefined();
    // Past half its age a reload starts in the background; the copy still answers.
    now = 3_000;
    expect(await keys.verify(key)).toMatchObject({ name: 'known' });
    now = 5_001;
    await expect(keys.verify(generateApiKey())).rejects.toBeInstanceOf(StoreUnavailableError);
    // A token that cannot be an issued key needs no database at all.
    expect(await keys.verify('as_too-short')).toBeUndefined();
  });

  it('reloads its copy in the background once past half its age, answering from the old', async () => {
    const db = await freshDb();
    const registry = await ApiKeyRegistry.open(db);
    let now = 0;
    const keys = await MongoApiKeys.open(db, { cacheMs: 5_000, now: () => now });
    const added = await registry.create('added');
    now = 2_500;
    expect(await keys.verify(added)).toBeUndefined();
    now = 2_501;
    // This request is answered from the copy; the reload it started brings the new key.
    expect(await keys.verify(added)).toBeUndefined();
    await vi.waitFor(
      async () => expect(await keys.verify(added)).toMatchObject({ name: 'added' }),
      {
        timeout: 60_000,
        interval: 20,
      },
    );
    expect(now).toBe(2_501);
  });
});

describe('API keys while the key database is down', () => {
  it('answers 503 (not 401) for a key it cannot look up, and keeps serving API_KEYS', async () => {
    const target = new URL(inject('mongoUri').replace(/^mongodb:/, 'http:'));
    const proxy = await startTcpProxy({
      host: target.hostname,
      port: Number(target.port || 27017),
    });
    onTestFinished(() => proxy.close());
    const db = await freshDb(`mongodb://127.0.0.1:${proxy.port}/?directConnection=true`);
    const managedKey = await (await ApiKeyRegistry.open(db)).create('managed');
    const apiKeys = new ChainedApiKeys([
      new StaticApiKeys(parseApiKeys('static-key')),
      await MongoApiKeys.open(db, { cacheMs: 0 }),
    ]);
    const api = await startTestApi({ store: new MemoryPetStore(), apiKeys });
    const get = (key: string) =>
      fetch(`${api.base}/pets`, { headers: { Authorization: `Bearer ${key}` } });
    expect((await get(managedKey)).status).toBe(200);

    await proxy.down();
    const down = await get(managedKey);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).not.toBeNull();
    expect((await errorBody(down)).code).toBe('service_unavailable');
    expect((await get('static-key')).status).toBe(200);

    await proxy.up();
    // The test's timeout catches lookups that never recover.
    while ((await get(managedKey)).status !== 200) await new Promise((r) => setTimeout(r, 100));
  });
});

describe('setUpApiKeys', () => {
  /** `db` as the store hands it over, its calls `guarded` as the store's are. */
  const database = (db: Db) => ({ db, call: guarded });

  it('generates a key when neither API_KEYS nor the collection holds one', async () => {
    const setup = await setUpApiKeys({ apiKeys: '', apiKeyCacheMs: 0 }, database(await freshDb()));
    expect(setup.generatedKey).toMatch(/^as_/);
    expect(await setup.verifier.verify(setup.generatedKey ?? '')).toBeDefined();
  });

  it('generates none once the collection holds a key, even a revoked one', async () => {
    const db = await freshDb();
    const registry = await ApiKeyRegistry.open(db);
    const key = await registry.create('only');
    await registry.revoke('only');
    const setup = await setUpApiKeys({ apiKeys: '', apiKeyCacheMs: 0 }, database(db));
    expect(setup.generatedKey).toBeUndefined();
    expect(await setup.verifier.verify(key)).toBe('revoked');
  });

  it('accepts keys from API_KEYS and from the collection side by side', async () => {
    const db = await freshDb();
    const key = await (await ApiKeyRegistry.open(db)).create('db-key');
    const setup = await setUpApiKeys({ apiKeys: 'env-key', apiKeyCacheMs: 0 }, database(db));
    expect(setup.generatedKey).toBeUndefined();
    expect(await setup.verifier.verify(key)).toEqual({ id: digestKey(key), name: 'db-key' });
    expect(await setup.verifier.verify('env-key')).toEqual({
      id: digestKey('env-key'),
      name: expect.stringMatching(/^env:/),
    });
  });

  it("reads the collection through the store's call, which may refuse it", async () => {
    const refused = new StoreUnavailableError('the database client is reconnecting');
    const setup = setUpApiKeys(
      { apiKeys: 'env-key', apiKeyCacheMs: 0 },
      { db: await freshDb(), call: () => Promise.reject(refused) },
    );
    await expect(setup).rejects.toBe(refused);
  });
});
