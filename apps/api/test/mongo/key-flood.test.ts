import { uniqueDbName } from '@animal-store/test-db';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { digestKey, generateApiKey } from '../../src/keys/api-key.js';
import { ApiKeyRegistry } from '../../src/keys/api-key-registry.js';
import { MongoApiKeys } from '../../src/keys/mongo-api-keys.js';
import { MemoryPetStore } from '../../src/store/memory-pet-store.js';
import { startTestApi } from '../helpers/api.js';

const LIMIT = 10;
const client = new MongoClient(inject('mongoUri'), { monitorCommands: true });
const db = client.db(uniqueDbName());
/** The digest of every lookup the database was asked for. */
const lookedUp: string[] = [];
client.on('commandStarted', (event) => {
  if (event.commandName === 'find' && event.command.find === 'api_keys') {
    lookedUp.push(String(event.command.filter?.digest));
  }
});
afterAll(async () => {
  await db.dropDatabase();
  await client.close();
});

describe('a flood of made-up API keys (MongoDB)', () => {
  it('costs a bounded number of lookups while a valid client keeps being answered', async () => {
    const legit = await (await ApiKeyRegistry.open(db)).create('legit');
    const legitDigest = digestKey(legit);
    // cacheMs 0: every request of the valid client needs a lookup, during the flood too.
    const apiKeys = await MongoApiKeys.open(db, {
      cacheMs: 0,
      failedLookupsPerAddress: LIMIT,
      failedLookupWindowMs: 3_600_000,
    });
    const api = await startTestApi({ store: new MemoryPetStore(), apiKeys });
    const get = (key: string) =>
      fetch(`${api.base}/pets`, { headers: { Authorization: `Bearer ${key}` } });
    // The valid client is at work before the flood starts (from the same address: 127.0.0.1).
    expect((await get(legit)).status).toBe(200);

    const flood = async () => {
      const answers: { status: number; retryAfter: string | null; code: string }[] = [];
      for (let batch = 0; batch < 12; batch++) {
        const keys = Array.from({ length: 50 }, (_, i) =>
          i % 3 === 0 ? `guess-${batch}-${i}` : generateApiKey(),
        );
        for (const answer of await Promise.all(keys.map(get))) {
          const body = (await answer.json()) as { code: string };
          answers.push({
            status: answer.status,
            retryAfter: answer.headers.get('retry-after'),
            code: body.code,
          });
        }
      }
      return answers;
    };
    const valid = async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await get(legit)).status);
      return statuses;
    };
    const [flooded, legitStatuses] = await Promise.all([flood(), valid()]);

    expect(legitStatuses).toEqual(Array(20).fill(200));
    expect(flooded).toHaveLength(600);
    for (const answer of flooded) {
      expect([401, 429]).toContain(answer.status);
      if (answer.status === 429) {
        expect(answer.code).toBe('rate_limited');
        expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      } else {
        expect(answer.code).toBe('unauthorized');
      }
    }
    expect(flooded.filter((a) => a.status === 429).length).toBeGreaterThan(0);
    const unknownLookups = lookedUp.filter((digest) => digest !== legitDigest);
    expect(unknownLookups.length).toBeLessThanOrEqual(LIMIT);
    expect(lookedUp.filter((digest) => digest === legitDigest).length).toBe(21);
  });
});
