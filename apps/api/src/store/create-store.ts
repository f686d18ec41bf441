import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { MemoryPetStore } from './memory-pet-store.js';
import { MongoPetStore } from './mongo-pet-store.js';
import type { PetStore } from './pet-store.js';

/** MongoDB when `MONGODB_URI` is set, otherwise the embedded in-memory store. */
export async function createStore(config: Config, logger: Logger): Promise<PetStore> {
  if (config.mongodbUri !== undefined) {
    const store = await MongoPetStore.connect(config.mongodbUri, config.mongodbDb);
    logger.info({ db: config.mongodbDb }, 'using the MongoDB store');
    return store;
  }
  logger.warn(
    'using the in-memory store: data is NOT kept when the process stops (set MONGODB_URI to keep it)',
  );
  return new MemoryPetStore();
}
