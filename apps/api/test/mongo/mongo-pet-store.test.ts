import { uniqueDbName } from '@animal-store/test-db';
import { Long } from 'mongodb';
import { describe, expect, inject, it, vi } from 'vitest';
import { MongoPetStore } from '../../src/store/mongo-pet-store.js';
import { StoreUnavailableError } from '../../src/store/pet-store.js';
import { openMongoTestStore, readPage, readPet } from '../helpers/store.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';
import { FILTERS } from '../store/pet-examples.js';
import { petStoreSuite } from '../store/pet-store-suite.js';

const failed = (error: unknown) => error;

petStoreSuite('MongoPetStore', (options) => openMongoTestStore(undefined, options));

describe('MongoPetStore on disk', () => {
  it('stores ids and categoryIds as int64, keyed by _id', async () => {
    const store = await openMongoTestStore();
    try {
      const pet = await store.create({ name: 'x', categoryId: 2 ** 40, status: 'sold' });
      const raw = await store.db
        .collection<{ _id: Long; categoryId: Long }>('pets')
        .findOne({}, { promoteLongs: false });
      expect(raw?._id).toBeInstanceOf(Long);
      expect(raw?.categoryId).toBeInstanceOf(Long);
      expect(raw?._id.toNumber()).toBe(pet.id);
    } finally {
      await store.close();
    }
  });

  // Read from the contract: a list filter added there without its index fails here.
  it.each(FILTERS)('has the index that serves the $param filter ascending by id', async ({
    field,
  }) => {
    const store = await openMongoTestStore();
    try {
      const indexes = await store.db.collection('pets').indexes();
      expect(indexes.map((index) => index.key)).toContainEqual({ [field]: 1, _id: 1 });
    } finally {
      await store.close();
    }
  });

  it('creates its indexes idempotently and continues the id sequence after a restart', async () => {
    const uri = inject('mongoUri');
    const dbName = uniqueDbName();
    const first = await MongoPetStore.connect(uri, dbName, { idBlockSize: 4 });
    const a = await first.create({ name: 'a', categoryId: 1, status: 'available' });
    await first.close();
    const second = await MongoPetStore.connect(uri, dbName, { idBlockSize: 4 });
    try {
      const b = await second.create({ name: 'b', categoryId: 1, status: 'available' });
      expect(b.id).toBeGreaterThan(a.id);
      expect((await readPage(second, { limit: 10 })).pets.map((p) => p.name)).toEqual(['a', 'b']);
    } finally {
      await second.db.dropDatabase();
      await second.close();
    }
  });

  it('skips an id that is already taken instead of overwriting it', async () => {
    const store = await openMongoTestStore();
    try {
      const pets = store.db.collection<{ _id: Long; name: string }>('pets');
      await pets.insertOne({ _id: Long.fromNumber(1), name: 'already here' });
      const created = await store.create({ name: 'new', categoryId: 1, status: 'available' });
      expect(created.id).not.toBe(1);
      expect((await pets.findOne({ _id: Long.fromNumber(1) }))?.name).toBe('already here');
      expect((await readPet(store, created.id))?.name).toBe('new');
    } finally {
      await store.close();
    }
  });

  it('costs one counter round-trip per block of ids', async () => {
    const uri = inject('mongoUri');
    const store = await MongoPetStore.connect(uri, uniqueDbName(), {
      idBlockSize: 50,
      clientOptions: { monitorCommands: true },
    });
    let reservations = 0;
    store.client.on('commandStarted', (event) => {
      if (event.commandName === 'findAndModify') reservations++;
    });
    try {
      await Promise.all(
        Array.from({ length: 120 }, (_, i) =>
          store.create({ name: `p${i}`, categoryId: 1, status: 'available' }),
        ),
      );
      expect(reservations).toBe(3);
    } finally {
      await store.db.dropDatabase();
      await store.close();
    }
  });

  it('answers a ping while the database answers, and fails it as unavailable when it cannot', async () => {
    const target = new URL(inject('mongoUri').replace(/^mongodb:/, 'http:'));
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
    const store = await openMongoTestStore(
      `mongodb://127.0.0.1:${proxy.port}/?directConnection=true`,
      { clientOptions: { serverSelectionTimeoutMS: 1_000 } },
    );
    try {
      await store.ping();
      await proxy.down();
      // Readiness (`/readyz`) asks this: down, not a pass or a hang.
      const failure = await store.ping().then(() => 'no error', failed);
      expect(failure).toBeInstanceOf(StoreUnavailableError);
      await proxy.up();
      await vi.waitFor(() => store.ping(), { timeout: 60_000, interval: 100 });
    } finally {
      await store.close();
      await proxy.close();
    }
  });

  it('reads a page as one find: the filter, from after the last id, in id order, and one more', async () => {
    const store = await openMongoTestStore(undefined, { clientOptions: { monitorCommands: true } });
    try {
      const finds: Record<string, unknown>[] = [];
      store.client.on('commandStarted', (event) => {
        if (event.commandName === 'find') finds.push(event.command);
      });
      await store.listJson({ limit: 5 });
      await store.listJson({ limit: 20, status: 'sold', after: 7 });
      expect(finds).toHaveLength(2);
      // The driver sends a sort as a Map (its keys' order is the sort's).
      const idOrder = new Map([['_id', 1]]);
      expect(finds[0]).toMatchObject({ filter: {}, sort: idOrder, limit: 6 });
      expect(finds[1]).toMatchObject({
        filter: { status: 'sold', _id: { $gt: Long.fromNumber(7) } },
        sort: idOrder,
        limit: 21,
      });
    } finally {
      await store.close();
    }
  });

  it.each([
    ['a read of one pet', 'find', (store: MongoPetStore) => store.getJson(1)],
    ['a list', 'find', (store: MongoPetStore) => store.listJson({ limit: 5 })],
    [
      'a create',
      'insert',
      (store: MongoPetStore) => store.create({ name: 'x', categoryId: 1, status: 'available' }),
    ],
  ] as const)('fails %s as unavailable when its client closes under it', async (_, command, call) => {
    let closing: Promise<void> | undefined;
    const meanwhile: Promise<unknown>[] = [];
    const store = await openMongoTestStore(undefined, { clientOptions: { monitorCommands: true } });
    try {
      await store.create({ name: 'first', categoryId: 1, status: 'available' });
      // Closed as the command is written, before its reply is read.
      store.client.on('commandStarted', (event) => {
        if (event.commandName !== command || closing) return;
        closing = store.client.close();
        for (let i = 0; i < 3; i++) meanwhile.push(call(store).then(() => 'no error', failed));
      });
      const failure = await call(store).then(() => 'no error', failed);
      expect(closing, `no ${command} command started`).toBeDefined();
      await closing;
      expect(failure).toBeInstanceOf(StoreUnavailableError);
      expect((failure as StoreUnavailableError).kind).toBe('unavailable');
      // Begun meanwhile, a call may also be served by the client connecting again.
      for (const outcome of await Promise.all(meanwhile)) {
        if (outcome === 'no error') continue;
        expect(outcome).toBeInstanceOf(StoreUnavailableError);
        expect((outcome as StoreUnavailableError).kind).toBe('unavailable');
      }
    } finally {
      await store.close();
    }
  });
});
