import type { Collection, Db } from 'mongodb';
import { type Clock, systemClock } from '../clock.js';
import { guarded, isDuplicateKey } from '../store/mongo-errors.js';
import { digestKey, generateApiKey } from './api-key.js';

/** The collection that holds API keys: digests only, never a key. */
export const API_KEYS_COLLECTION = 'api_keys';

/** One API key on disk. */
export interface ApiKeyDocument {
  /** Unique; the identity requests are logged under. */
  name: string;
  /** SHA-256 of the key, lowercase hex; unique. */
  digest: string;
  createdAt: Date;
  /** When the key was revoked; `null` while it is valid. */
  revokedAt: Date | null;
}

/** What `list` shows of a key: never its digest in full. */
export interface ApiKeySummary {
  name: string;
  /** The first 8 hex digits of the digest, enough to tell keys apart. */
  fingerprint: string;
  createdAt: Date;
  revokedAt: Date | null;
}

/** Key names: what a person can type and a log can show unquoted. */
export const API_KEY_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const summarize = (doc: ApiKeyDocument): ApiKeySummary => ({
  name: doc.name,
  fingerprint: doc.digest.slice(0, 8),
  createdAt: doc.createdAt,
  revokedAt: doc.revokedAt ?? null,
});

export class ApiKeyNameTakenError extends Error {
  override name = 'ApiKeyNameTakenError';
}

/** The `api_keys` collection with its unique indexes on `digest` and `name` (made idempotently). */
export async function openApiKeyCollection(db: Db): Promise<Collection<ApiKeyDocument>> {
  const keys = db.collection<ApiKeyDocument>(API_KEYS_COLLECTION);
  // One index per call: FerretDB 1.x drops the connection on a createIndexes of several
  // indexes that already exist.
  await guarded(() => keys.createIndex({ digest: 1 }, { name: 'digest_unique', unique: true }));
  await guarded(() => keys.createIndex({ name: 1 }, { name: 'name_unique', unique: true }));
  return keys;
}

/** Creates, lists and revokes the keys kept in MongoDB (the `keys` CLI). */
export class ApiKeyRegistry {
  private constructor(
    readonly collection: Collection<ApiKeyDocument>,
    readonly now: Clock,
  ) {}

  static async open(db: Db, now: Clock = systemClock): Promise<ApiKeyRegistry> {
    return new ApiKeyRegistry(await openApiKeyCollection(db), now);
  }

  /** Stores a new key under `name` and returns it: the only time it is ever seen. */
  async create(name: string): Promise<string> {
    if (!API_KEY_NAME.test(name)) {
      throw new RangeError(
        'a key name is 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit',
      );
    }
    const key = generateApiKey();
    const doc: ApiKeyDocument = {
      name,
      digest: digestKey(key),
      createdAt: new Date(this.now()),
      revokedAt: null,
    };
    try {
      await guarded(() => this.collection.insertOne(doc));
    } catch (error) {
      if (isDuplicateKey(error)) throw new ApiKeyNameTakenError(`a key named "${name}" exists`);
      throw error;
    }
    return key;
  }

  /** Every key, oldest first. */
  async list(): Promise<ApiKeySummary[]> {
    const docs = await guarded(() =>
      this.collection.find({}, { sort: { createdAt: 1, name: 1 } }).toArray(),
    );
    return docs.map(summarize);
  }

  /**
   * Revokes the key named `name`. Idempotent: a key revoked before keeps its first `revokedAt`.
   * Returns `undefined` for an unknown name.
   */
  async revoke(name: string): Promise<ApiKeySummary | undefined> {
    await guarded(() =>
      this.collection.updateOne(
        { name, revokedAt: null },
        { $set: { revokedAt: new Date(this.now()) } },
      ),
    );
    const doc = await guarded(() => this.collection.findOne({ name }));
    return doc ? summarize(doc) : undefined;
  }

  /** How many keys exist, revoked ones included. */
  async count(): Promise<number> {
    return guarded(() => this.collection.countDocuments({}));
  }
}
