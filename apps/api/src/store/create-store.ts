import type { Db, MongoClient, MongoClientOptions } from 'mongodb';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { ConfigError } from '../config-error.js';
import { MemoryPetStore } from './memory-pet-store.js';
import type { DatabaseCall } from './mongo-errors.js';
import type { PetStore } from './pet-store.js';

/**
 * The database of a MongoDB store, for what else the process keeps there (the API keys, the
 * shared rate limit): its calls go through the store's `call`, which refuses them while the
 * store replaces its client.
 */
export interface StoreDatabase {
  readonly db: Db;
  readonly call: DatabaseCall;
}

/** The store a process runs on, and its database when it is MongoDB. */
export interface CreatedStore {
  store: PetStore;
  database?: StoreDatabase;
}

/**
 * The driver's refusal of a connection string as a `ConfigError`, with any part of the URI that
 * may hold a credential cut out of its message; undefined for any other error.
 */
export function uriError(error: unknown, uri: string): ConfigError | undefined {
  const name = (error as { name?: string } | null)?.name;
  if (name !== 'MongoParseError' && name !== 'MongoRuntimeError' && name !== 'MongoAPIError') {
    return undefined;
  }
  let message = String((error as Error).message).split('\n')[0] ?? '';
  const secrets = [uri, /^[^:]+:\/\/([^@/]*)@/.exec(uri)?.[1]].filter(
    (s): s is string => s !== undefined && s !== '',
  );
  for (const secret of secrets) message = message.replaceAll(secret, '<hidden>');
  return new ConfigError(`MONGODB_URI is not a usable MongoDB connection string: ${message}`);
}

/**
 * The driver's own waits, bounded by a store call's time limit: it stops waiting for a
 * connection, and for a reply, once the API has answered the request `503`. What
 * `MONGODB_URI` sets wins.
 */
export function driverTimeouts(storeTimeoutMs: number): MongoClientOptions {
  return { waitQueueTimeoutMS: storeTimeoutMs, socketTimeoutMS: storeTimeoutMs };
}

/**
 * MongoDB when `MONGODB_URI` is set, otherwise the embedded in-memory store. The driver is
 * loaded only for MongoDB: the embedded default does not carry it. `beforeConnect` sees the
 * driver's client before it connects.
 */
export async function createStore(
  config: Config,
  logger: Logger,
  beforeConnect?: (client: MongoClient) => void,
): Promise<CreatedStore> {
  if (config.mongodbUri !== undefined) {
    const { MongoPetStore } = await import('./mongo-pet-store.js');
    const store = await MongoPetStore.connect(config.mongodbUri, config.mongodbDb, {
      allowWeakConsistency: config.mongodbAllowWeakConsistency,
      beforeConnect,
      clientOptions: driverTimeouts(config.storeTimeoutMs),
      onReconnect: (event) => {
        if (event.kind === 'stalled') {
          logger.warn(
            { servers: event.servers },
            'database monitor stalled: the driver reconnects to the database',
          );
        } else if (event.kind === 'reconnected') logger.info('database client reconnected');
        else logger.warn({ err: event.error }, 'database client reconnect failed: tries again');
      },
    }).catch((error: unknown) => {
      throw uriError(error, config.mongodbUri as string) ?? error;
    });
    logger.info({ db: config.mongodbDb }, 'using the MongoDB store');
    return { store, database: { db: store.db, call: store.call } };
  }
  logger.warn(
    'using the in-memory store: data is NOT kept when the process stops (set MONGODB_URI to keep it)',
  );
  return { store: new MemoryPetStore() };
}
