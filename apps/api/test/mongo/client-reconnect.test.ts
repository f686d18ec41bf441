import type { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ApiKeyRegistry } from '../../src/keys/api-key-registry.js';
import { MongoApiKeys } from '../../src/keys/mongo-api-keys.js';
import { ClusterRateLimiter } from '../../src/rate-limit/cluster-rate-limiter.js';
import type { MongoPetStore } from '../../src/store/mongo-pet-store.js';
import { StoreUnavailableError } from '../../src/store/pet-store.js';
import { openMongoTestStore } from '../helpers/store.js';

const failed = (error: unknown) => error;

// When the driver's monitor of a server stalls, the store closes its client and connects it
// again. A call that met the closing client could read another command's reply (FerretDB answers
// the unacknowledged `endSessions` of `close()`), so everything on that client calls through the
// store's `call`, which refuses at once while the client is replaced.
describe("calls on the store's client while the store reconnects it", () => {
  it('fail as unavailable and send nothing: pets, API keys and rate-limit leases', async () => {
    let store: MongoPetStore | undefined;
    let during: () => Promise<unknown[]> = async () => [];
    let calls: Promise<unknown[]> | undefined;
    let reconnected = () => {};
    const done = new Promise<void>((resolve) => {
      reconnected = resolve;
    });
    store = await openMongoTestStore(undefined, {
      // A check counts as stalled after 2 × connectTimeoutMS and the watch's slack (3 s here);
      // a connection on a busy machine still has a second.
      clientOptions: { monitorCommands: true, connectTimeoutMS: 1_000 },
      onReconnect: (event) => {
        // Called just before the reconnect begins: the calls go once it has.
        if (event.kind === 'stalled') {
          queueMicrotask(() => {
            calls = during();
          });
        }
        if (event.kind === 'reconnected') reconnected();
      },
    });
    try {
      const pet = await store.create({ name: 'kept', categoryId: 1, status: 'available' });
      const key = await (await ApiKeyRegistry.open(store.db)).create('reconnect');
      // A copy of the keys never fresh enough to answer from: each verify reads the collection.
      const keys = await MongoApiKeys.open(store.db, { cacheMs: 0, call: store.call });
      const fallbacks: unknown[] = [];
      const limiter = await ClusterRateLimiter.open(
        store.db,
        { requests: 10, windowSeconds: 3_600 },
        { lease: 1, call: store.call, onFallback: (error) => fallbacks.push(error) },
      );
      const open = store;
      during = () =>
        Promise.all([
          open.getJson(pet.id).then(() => 'no error', failed),
          keys.verify(key).then(() => 'no error', failed),
          Promise.resolve(limiter.take('k')),
        ]);
      const sent: string[] = [];
      store.client.on('commandStarted', (event) => sent.push(event.commandName));
      // A server check that never ends: the store's watch finds its monitor stalled.
      (store.client as unknown as EventEmitter).emit('serverHeartbeatStarted', {
        connectionId: 'stalled.invalid:27017',
        awaited: false,
      });
      await done;
      const [read, verified, left] = (await calls) ?? [];
      for (const failure of [read, verified, fallbacks[0]]) {
        expect(failure).toBeInstanceOf(StoreUnavailableError);
        expect((failure as Error).message).toBe('the database client is reconnecting');
      }
      // The limiter counts in the process alone for the rest of the window.
      expect(left).toBe(9);
      expect(sent.filter((name) => name === 'find' || name === 'insert')).toEqual([]);
      // Reconnected, the store and the keys serve again.
      expect(await store.getJson(pet.id)).toBe(pet.json);
      expect(await keys.verify(key)).toMatchObject({ name: 'reconnect' });
    } finally {
      await store.close();
    }
  });
});
