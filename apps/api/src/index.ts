export { type AppDeps, createApp } from './app.js';
export { type Config, ConfigError, loadConfig } from './config.js';
export { nextPageLink } from './http/next-link.js';
export { DEFAULT_RATE_LIMIT, type RateLimitSettings } from './http/rate-limit.js';
export {
  DEFAULT_MAX_URL_BYTES,
  DEFAULT_SERVER_LIMITS,
  type ServerLimits,
} from './http/server-limits.js';
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
export { ApiMetrics } from './metrics/api-metrics.js';
export { type RunningServer, startServer } from './server.js';
export { MemoryPetStore } from './store/memory-pet-store.js';
export { MongoPetStore, type MongoPetStoreOptions } from './store/mongo-pet-store.js';
export * from './store/pet-store.js';
