/** The MongoDB parts of the service: its pet store and its managed API keys. */
export { ApiKeyRegistry, type ApiKeySummary } from './keys/api-key-registry.js';
export { MongoApiKeys, type MongoApiKeysOptions } from './keys/mongo-api-keys.js';
export { MongoPetStore, type MongoPetStoreOptions } from './store/mongo-pet-store.js';
