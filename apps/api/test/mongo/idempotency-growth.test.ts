import { randomUUID } from 'node:crypto';
import { IDEMPOTENCY_KEY_TTL_MS } from '@animal-store/contract';
import type { CommandStartedEvent } from 'mongodb';
import { describe, expect, it } from 'vitest';
import type { IdempotencyDocument } from '../../src/store/mongo-idempotency.js';
import { type IdempotentCreate, idempotencyRecordId } from '../../src/store/pet-store.js';
import { openMongoTestStore } from '../helpers/store.js';

// Several thousand records: on FerretDB, which scans for every filter, a create that looked its
// record up cost 200-480 ms from about 1,900 records on.
const KEYED_PETS = 3_000;
/** Created through the store; the key of one of them is repeated below. */
const CREATED = 10;

const keyed = (n: number): IdempotentCreate => ({
  scope: 'growth',
  key: `key-${n}`,
  fingerprint: `fingerprint-${n}`,
  draft: { name: `Pet ${n}`, categoryId: 1, status: 'available' },
});

describe('idempotency records', () => {
  it('cost a create the same database work with thousands kept as with none', async () => {
    let now = Date.now();
    const store = await openMongoTestStore(undefined, {
      clientOptions: { monitorCommands: true },
      clock: () => now,
    });
    const commands: CommandStartedEvent[] = [];
    store.client.on('commandStarted', (event) => commands.push(event));
    /**
     * The commands `call` sends, but the id counter's (once per block of ids) and the sweep of
     * expired records (once a minute): neither comes with each create.
     */
    const work = async (call: () => Promise<unknown>) => {
      commands.length = 0;
      await call();
      return commands
        .filter((c) => c.commandName !== 'findAndModify' && c.commandName !== 'delete')
        .map((c) => `${c.commandName} ${c.command[c.commandName]}`);
    };

    const first = await work(() => store.createOnce(keyed(0)));
    // The first creates go through the store; the rest of the thousands are copies of its last
    // record (each its own key and instance), written at once: the creates' commands are the
    // assertion, not how the records got there.
    for (let n = 1; n < CREATED; n++) await store.createOnce(keyed(n));
    const records = store.db.collection<IdempotencyDocument>('idempotency_keys');
    const template = await records.findOne({
      _id: idempotencyRecordId('growth', `key-${CREATED - 1}`),
    });
    if (template === null) throw new Error('the store wrote no idempotency record');
    const copies = Array.from({ length: KEYED_PETS - CREATED }, (_, i) => {
      const { key, fingerprint } = keyed(CREATED + i);
      return {
        ...template,
        _id: idempotencyRecordId('growth', key),
        instance: randomUUID(),
        fingerprint,
      };
    });
    await records.insertMany(copies);
    expect(await records.countDocuments()).toBe(KEYED_PETS);
    const last = await work(() => store.createOnce(keyed(KEYED_PETS)));

    // Two inserts, each checked by a unique index; no read, whose cost could grow with the records.
    expect(first).toEqual(['insert idempotency_keys', 'insert pets']);
    expect(last).toEqual(first);
    // A repeat reads its record and its pet, and writes nothing.
    expect(await work(() => store.createOnce(keyed(7)))).toEqual([
      'insert idempotency_keys',
      'find idempotency_keys',
      'find pets',
    ]);

    // Records stay bounded by the keys of one day: MongoDB's TTL index removes them, and where
    // the server has none (FerretDB) the store sweeps them: a day later they are gone.
    const ttl = (await records.indexes()).find((index) => index.name === 'expires');
    if (ttl !== undefined) expect(ttl.expireAfterSeconds).toBe(0);
    else {
      now += IDEMPOTENCY_KEY_TTL_MS + 60_000;
      await store.createOnce(keyed(KEYED_PETS + 1));
      while ((await records.countDocuments()) > 1) await new Promise((r) => setTimeout(r, 100));
    }
    await store.close();
  });
});
