export { type AppDeps, createApp } from './app.js';
export { type Config, ConfigError, loadConfig } from './config.js';
export {
  type ApiKeyVerifier,
  digestKey,
  generateApiKey,
  parseApiKeys,
  StaticApiKeys,
} from './keys/api-key.js';
export { ApiKeyRegistry, type ApiKeySummary } from './keys/api-key-registry.js';
export { ChainedApiKeys } from './keys/chained-api-keys.js';
export { MongoApiKeys, type MongoApiKeysOptions } from './keys/mongo-api-keys.js';
export { createLogger } from './logger.js';
export { type RunningServer, startServer } from './server.js';
export { MemoryPetStore } from './store/memory-pet-store.js';
export { MongoPetStore, type MongoPetStoreOptions } from './store/mongo-pet-store.js';
export * from './store/pet-store.js';
