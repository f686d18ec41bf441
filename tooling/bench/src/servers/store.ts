import { MemoryPetStore, type PetStore } from '@animal-store/api';
import type { Long } from 'mongodb';
import { seedPet } from '../scenario.js';
import type { StoreSpec } from './protocol.js';

/** A store opened for a server child, with what the orchestrator may ask about it. */
export interface ChildStore {
  store: PetStore;
  /** Fills the empty store with pets 1..n. */
  seed(pets: number): Promise<void>;
  /** Database commands sent so far, by name (empty for the in-memory store). */
  commands(): Record<string, number>;
}

/** A pet document as MongoPetStore writes it. */
interface SeedDocument {
  _id: Long;
  name: string;
  categoryId: Long;
  status: string;
}

/** Pets per insertMany when seeding MongoDB. */
const SEED_BATCH = 10_000;

/**
 * Opens the store a server child runs on: the very class the API uses. For MongoDB the driver's
 * command monitoring counts round-trips (on the API and on the baseline alike).
 */
export async function openStore(spec: StoreSpec): Promise<ChildStore> {
  if (spec.kind === 'memory') {
    const store = new MemoryPetStore();
    return {
      store,
      // In-process, before listening (not over HTTP): a million pets take about a second.
      async seed(pets) {
        for (let n = 1; n <= pets; n++) await store.create(seedPet(n));
      },
      commands: () => ({}),
    };
  }
  // Loaded only for MongoDB, as the service does: an in-memory child never carries the driver.
  const { MongoPetStore } = await import('@animal-store/api/mongo');
  const { Long } = await import('mongodb');
  const store = await MongoPetStore.connect(spec.uri, spec.dbName, {
    clientOptions: { monitorCommands: true },
  });
  const counts: Record<string, number> = {};
  store.client.on('commandStarted', (event) => {
    counts[event.commandName] = (counts[event.commandName] ?? 0) + 1;
  });
  return {
    store,
    async seed(pets) {
      // The documents MongoPetStore writes (int64 _id and categoryId), in batches, and the id
      // counter set past them so creates continue at pets + 1.
      const collection = store.db.collection<SeedDocument>('pets');
      await collection.deleteMany({});
      for (let first = 1; first <= pets; first += SEED_BATCH) {
        const last = Math.min(pets, first + SEED_BATCH - 1);
        const docs: SeedDocument[] = [];
        for (let n = first; n <= last; n++) {
          const pet = seedPet(n);
          docs.push({
            _id: Long.fromNumber(n),
            name: pet.name,
            categoryId: Long.fromNumber(pet.categoryId),
            status: pet.status,
          });
        }
        await collection.insertMany(docs, { ordered: false });
      }
      await store.db
        .collection<{ _id: string; seq: Long }>('counters')
        .updateOne({ _id: 'pets' }, { $set: { seq: Long.fromNumber(pets) } }, { upsert: true });
    },
    commands: () => ({ ...counts }),
  };
}
