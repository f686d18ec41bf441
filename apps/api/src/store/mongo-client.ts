import { MongoClient, type MongoClientOptions } from 'mongodb';
import { guarded } from './mongo-errors.js';

/**
 * A connected driver client. Fails fast while the database is down, so callers answer 503 (or
 * a CLI exits) instead of hanging; rejects with `StoreUnavailableError` when it cannot connect.
 */
export async function connectMongo(
  uri: string,
  options: MongoClientOptions = {},
): Promise<MongoClient> {
  const client = new MongoClient(uri, {
    serverSelectionTimeoutMS: 2_000,
    connectTimeoutMS: 2_000,
    appName: 'animal-store-api',
    ...options,
  });
  await guarded(() => client.connect());
  return client;
}
