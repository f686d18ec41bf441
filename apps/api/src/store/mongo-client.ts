import { MongoClient, type MongoClientOptions } from 'mongodb';
import { ConnectionString } from 'mongodb-connection-string-url';
import { ConfigError } from '../config-error.js';
import { guarded } from './mongo-errors.js';

/**
 * The driver options the service runs with unless `MONGODB_URI` sets them: fail fast while the
 * database is down (callers answer 503 instead of hanging), writes acknowledged by a majority
 * (an acknowledged write survives a failover), reads from the primary (a 201 is never followed
 * by a 404 from a lagging secondary).
 */
export const MONGO_DEFAULTS = {
  serverSelectionTimeoutMS: 2_000,
  connectTimeoutMS: 2_000,
  appName: 'animal-store-api',
  w: 'majority',
  readPreference: 'primary',
} as const satisfies MongoClientOptions;

/**
 * `defaults` without what `uri` sets itself (option names are case-insensitive there): the
 * operator's connection string wins over the code.
 */
export function optionsNotInUri(uri: string, defaults: MongoClientOptions): MongoClientOptions {
  const inUri = new Set(
    [...new ConnectionString(uri).searchParams.keys()].map((key) => key.toLowerCase()),
  );
  return Object.fromEntries(
    Object.entries(defaults).filter(([key]) => !inUri.has(key.toLowerCase())),
  );
}

/**
 * What in the client's settings weakens durability or read-your-writes (empty when nothing
 * does): a write concern other than `majority`, a read preference other than `primary`.
 */
export function weakenings(client: MongoClient): string[] {
  const found: string[] = [];
  const w = client.options.writeConcern?.w;
  if (w !== undefined && w !== 'majority') {
    found.push(`w=${w} (an acknowledged write can be lost when the primary fails)`);
  }
  const mode = client.options.readPreference.mode;
  if (mode !== 'primary') {
    found.push(`readPreference=${mode} (a read can miss a write already acknowledged)`);
  }
  return found;
}

export interface ConnectOptions {
  /** Connect even when the URI weakens durability or reads (`weakenings`). */
  allowWeakConsistency?: boolean;
  /** Sees the client before it connects, so a listener hears every event (the pool metrics). */
  beforeConnect?: (client: MongoClient) => void;
}

/**
 * A connected driver client with `MONGO_DEFAULTS` and `options` under what `uri` sets. Throws
 * `ConfigError` when the URI weakens durability or reads, unless allowed; rejects with
 * `StoreUnavailableError` when it cannot connect.
 */
export async function connectMongo(
  uri: string,
  options: MongoClientOptions = {},
  { allowWeakConsistency = false, beforeConnect }: ConnectOptions = {},
): Promise<MongoClient> {
  const client = new MongoClient(uri, optionsNotInUri(uri, { ...MONGO_DEFAULTS, ...options }));
  const weak = weakenings(client);
  if (weak.length > 0 && !allowWeakConsistency) {
    throw new ConfigError(
      `MONGODB_URI asks for ${weak.join(' and ')}: remove it, or set MONGODB_ALLOW_WEAK_CONSISTENCY=true`,
    );
  }
  beforeConnect?.(client);
  await guarded(() => client.connect());
  return client;
}
