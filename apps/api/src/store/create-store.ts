import type { Db } from 'mongodb';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { MemoryPetStore } from './memory-pet-store.js';
import type { PetStore } from './pet-store.js';

/** The store a process runs on, and its database when it is MongoDB (for the API keys). */
export interface CreatedStore {
  store: PetStore;
  db?: Db;
}

/**
 * MongoDB when `MONGODB_URI` is set, otherwise the embedded in-memory store. The driver is
 * loaded only for MongoDB: the embedded default does not carry it.
 */
export async function createStore(config: Config, logger: Logger): Promise<CreatedStore> {
  if (config.mongodbUri !== undefined) {
    const { MongoPetStore } = await import('./mongo-pet-store.js');
    const store = await MongoPetStore.connect(config.mongodbUri, config.mongodbDb);
    logger.info({ db: config.mongodbDb }, 'using the MongoDB store');
    return { store, db: store.db };
  }
  logger.warn(
    'using the in-memory store: data is NOT kept when the process stops (set MONGODB_URI to keep it)',
  );
  return { store: new MemoryPetStore() };
}
