import { MongoClient } from 'mongodb';
import { describe, expect, it } from 'vitest';
import {
  connectMongo,
  MONGO_DEFAULTS,
  optionsNotInUri,
  weakenings,
} from '../src/store/mongo-client.js';

/** The settings the driver would run with for `uri` and the service's defaults. */
const settings = (uri: string) =>
  new MongoClient(uri, optionsNotInUri(uri, { ...MONGO_DEFAULTS })).options;

describe('the MongoDB client options', () => {
  it('uses the service’s defaults where the URI says nothing', () => {
    const options = settings('mongodb://db1,db2,db3/?replicaSet=rs0');
    expect(options.serverSelectionTimeoutMS).toBe(2_000);
    expect(options.connectTimeoutMS).toBe(2_000);
    expect(options.writeConcern?.w).toBe('majority');
    expect(options.readPreference.mode).toBe('primary');
  });

  it('lets an option in the URI win over the default, whatever its case', () => {
    const options = settings(
      'mongodb://u:p@db1,db2/?serverSelectionTimeoutMS=30000&CONNECTTIMEOUTMS=10000&appName=shop',
    );
    expect(options.serverSelectionTimeoutMS).toBe(30_000);
    expect(options.connectTimeoutMS).toBe(10_000);
    expect(options.appName).toBe('shop');
  });

  it('finds nothing weak in the defaults or in a URI that asks for the same', () => {
    const client = new MongoClient(
      'mongodb://db/?w=majority&readPreference=primary',
      optionsNotInUri('mongodb://db/?w=majority&readPreference=primary', { ...MONGO_DEFAULTS }),
    );
    expect(weakenings(client)).toEqual([]);
  });

  it('names a write concern below majority and a read preference other than primary', () => {
    const uri = 'mongodb://db/?w=1&readPreference=secondaryPreferred';
    const client = new MongoClient(uri, optionsNotInUri(uri, { ...MONGO_DEFAULTS }));
    const found = weakenings(client);
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^w=1 /);
    expect(found[1]).toMatch(/^readPreference=secondaryPreferred /);
  });

  it('refuses to connect on a weakening URI in one line, without echoing it', async () => {
    const uri = 'mongodb://root:s3cret@127.0.0.1:1/?w=0';
    await expect(connectMongo(uri)).rejects.toThrow(
      /^MONGODB_URI asks for w=0 .*set MONGODB_ALLOW_WEAK_CONSISTENCY=true$/,
    );
    await expect(connectMongo(uri)).rejects.not.toThrow(/s3cret/);
  });
});
