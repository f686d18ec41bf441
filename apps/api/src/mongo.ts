/** The MongoDB parts of the service: its pet store, its managed API keys, its shared rate limit. */
export { ApiKeyRegistry, type ApiKeySummary } from './keys/api-key-registry.js';
export { MongoApiKeys, type MongoApiKeysOptions } from './keys/mongo-api-keys.js';
export {
  ClusterRateLimiter,
  type ClusterRateLimiterOptions,
} from './rate-limit/cluster-rate-limiter.js';
export { MongoPetStore, type MongoPetStoreOptions } from './store/mongo-pet-store.js';
