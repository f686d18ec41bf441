import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { ConfigError } from '../config.js';
import { MemoryPetStore } from './memory-pet-store.js';
import type { PetStore } from './pet-store.js';

/** MongoDB when `MONGODB_URI` is set, otherwise the embedded in-memory store. */
export async function createStore(config: Config, logger: Logger): Promise<PetStore> {
  if (config.mongodbUri !== undefined) {
    throw new ConfigError('MONGODB_URI is set but the MongoDB store is not built yet');
  }
  logger.warn(
    'using the in-memory store: data is NOT kept when the process stops (set MONGODB_URI to keep it)',
  );
  return new MemoryPetStore();
}
