import type { Config } from '../config.js';
import type { StoreDatabase } from '../store/create-store.js';
import { type ApiKeyVerifier, generateApiKey, parseApiKeys, StaticApiKeys } from './api-key.js';
import { ChainedApiKeys } from './chained-api-keys.js';
import type { MongoApiKeys } from './mongo-api-keys.js';

export interface ApiKeySetup {
  verifier: ApiKeyVerifier;
  /** A key made up for this run because none is configured: print it once, never log it. */
  generatedKey?: string;
}

/**
 * The keys a process accepts: those of `API_KEYS`, then (with MongoDB) those of the `api_keys`
 * collection. Only when neither holds a key, revoked ones included, is a key generated: once
 * keys are managed with the CLI, revoking the last one locks the API instead of opening it.
 */
export async function setUpApiKeys(
  config: Pick<Config, 'apiKeys' | 'apiKeyCacheMs'>,
  database?: StoreDatabase,
): Promise<ApiKeySetup> {
  const digests = parseApiKeys(config.apiKeys);
  let managed: MongoApiKeys | undefined;
  if (database !== undefined) {
    // Loaded here, not at the top: without MongoDB the driver is never loaded.
    const { MongoApiKeys } = await import('../mongo.js');
    managed = await MongoApiKeys.open(database.db, {
      cacheMs: config.apiKeyCacheMs,
      call: database.call,
    });
  }
  let generatedKey: string | undefined;
  if (digests.length === 0 && (managed?.size ?? 0) === 0) {
    generatedKey = generateApiKey();
    digests.push(...parseApiKeys(generatedKey));
  }
  const fromConfig = new StaticApiKeys(digests);
  return {
    verifier: managed ? new ChainedApiKeys([fromConfig, managed]) : fromConfig,
    generatedKey,
  };
}
