// What an embedder needs to run the API: the app or a server, its settings, keys, logger,
// metrics and stores. The MongoDB parts live in `@animal-store/api/mongo`: importing this entry
// never loads the driver, so a service on the embedded store neither loads nor initialises it.
export { type AppDeps, createApp } from './app.js';
export { type Config, ConfigError, loadConfig } from './config.js';
export * from './http/errors.js';
export {
  DEFAULT_RATE_LIMIT,
  FixedWindowRateLimiter,
  type RateLimiter,
  type RateLimitSettings,
} from './http/rate-limit.js';
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
export { ChainedApiKeys } from './keys/chained-api-keys.js';
export { createLogger } from './logger.js';
export { ApiMetrics } from './metrics/api-metrics.js';
export { type RunningServer, startServer } from './server.js';
export {
  DEFAULT_STORE_MAX_IN_FLIGHT,
  DEFAULT_STORE_TIMEOUT_MS,
  type StoreLimits,
} from './store/instrumented-pet-store.js';
export { MemoryPetStore } from './store/memory-pet-store.js';
export * from './store/pet-store.js';
export { startTracing } from './tracing/tracing.js';
