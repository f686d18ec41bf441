import { chmod, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@animal-store/test-support';
import { MongoClient } from 'mongodb';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import {
  ferretdbBinary,
  NoTestMongoError,
  STRATEGIES,
  startTestMongo,
  strategiesFromEnv,
  type TestMongo,
} from '../src/index.js';
import { ping } from '../src/process-server.js';

// Servers and clients a test opened, closed after it whatever happened.
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

async function start(options: Parameters<typeof startTestMongo>[0] = {}): Promise<TestMongo> {
  const mongo = await startTestMongo({ log: false, ...options });
  cleanups.push(() => mongo.stop());
  return mongo;
}

function connect(uri: string, serverSelectionTimeoutMS = 5_000): MongoClient {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS });
  cleanups.push(() => client.close());
  return client;
}

/** An environment with no MONGODB_URI, so a strategy list decides alone. */
function envWithout(...names: string[]): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of names) delete env[name];
  return env;
}

const OWNED = STRATEGIES.filter((strategy) => strategy !== 'external');

describe('startTestMongo', () => {
  it('yields a server that stores and returns a document', async () => {
    const mongo = await start();
    expect(mongo.uri).toMatch(/^mongodb(\+srv)?:\/\//);
    expect(mongo.dbName).toMatch(/^animal_store_test_[0-9a-f]{12}$/);
    const pets = connect(mongo.uri).db(mongo.dbName).collection('pets');
    await pets.insertOne({ _id: 'rex' as never, name: 'Rex', status: 'available' });
    expect(await pets.findOne({ _id: 'rex' as never })).toEqual({
      _id: 'rex',
      name: 'Rex',
      status: 'available',
    });
  });

  it('gives each call a database of its own', async () => {
    const uri = inject('mongoUri');
    const env = { ...process.env, MONGODB_URI: uri };
    const [a, b] = await Promise.all([start({ env }), start({ env })]);
    expect(a.uri).toBe(b.uri);
    expect(a.dbName).not.toBe(b.dbName);
  });

  it('uses MONGODB_URI when it is set', async () => {
    // The run's server (from the globalSetup) plays the part of a server someone else runs.
    const uri = inject('mongoUri');
    const mongo = await start({ env: { ...process.env, MONGODB_URI: uri } });
    expect(mongo).toMatchObject({ kind: 'external', uri });
    expect(mongo.outage).toBeUndefined();
    await connect(uri).db(mongo.dbName).collection('pets').insertOne({ name: 'Tom' });
    await mongo.stop();
    await expect(ping(uri, 5_000)).resolves.toBeUndefined();
  });

  it('fails loudly when MONGODB_URI is set but does not answer', async () => {
    const uri = `mongodb://127.0.0.1:${await freePort()}/`;
    await expect(
      startTestMongo({
        env: { ...process.env, MONGODB_URI: uri },
        log: false,
        readyTimeoutMs: 1_000,
      }),
    ).rejects.toThrow(/MONGODB_URI is set .* did not answer ping/);
  });

  it('restarts on the same port with the data intact after an outage', async () => {
    const mongo = await start({ strategies: OWNED, env: envWithout('MONGODB_URI') });
    const outage = mongo.outage;
    if (!outage) throw new Error(`a ${mongo.kind} server should offer an outage switch`);
    const pets = connect(mongo.uri, 1_500).db(mongo.dbName).collection('pets');
    await pets.insertOne({ name: 'Rex' });

    await outage.down();
    await expect(pets.insertOne({ name: 'lost' })).rejects.toThrow();
    await outage.up();

    expect(await pets.findOne({ name: 'Rex' }, { projection: { _id: 0 } })).toEqual({
      name: 'Rex',
    });
    await pets.insertOne({ name: 'Tom' });
    expect(await pets.countDocuments()).toBe(2);
  });

  it('stops the server it started', async () => {
    const mongo = await startTestMongo({ strategies: OWNED, log: false });
    await ping(mongo.uri, 5_000);
    await mongo.stop();
    await expect(ping(mongo.uri, 1_000)).rejects.toThrow();
  });

  it('starts a mongod found on PATH', async () => {
    // No mongod here, so a stand-in on PATH checks the flags it is given and runs FerretDB instead.
    const binary = await ferretdbBinary({ env: process.env, log: () => {} });
    const bin = await mkdtemp(join(tmpdir(), 'animal-store-fake-mongod-'));
    cleanups.push(() => rm(bin, { recursive: true, force: true }));
    await writeFile(join(bin, 'mongod'), FAKE_MONGOD);
    await chmod(join(bin, 'mongod'), 0o755);
    const env = {
      ...envWithout('MONGODB_URI'),
      PATH: `${bin}:${process.env.PATH}`,
      FERRETDB: binary,
    };

    const mongo = await start({ strategies: ['mongod'], env });
    expect(mongo.kind).toBe('mongod');
    const pets = connect(mongo.uri).db(mongo.dbName).collection('pets');
    await pets.insertOne({ name: 'Rex' });
    expect(await pets.countDocuments()).toBe(1);
  });

  it('explains every attempt when no server can be had', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'animal-store-nothing-'));
    cleanups.push(() => rm(empty, { recursive: true, force: true }));
    // mongodb-memory-server downloads from here: a closed local port, so no traffic leaves.
    vi.stubEnv('MONGOMS_DOWNLOAD_MIRROR', `https://127.0.0.1:${await freePort()}`);
    vi.stubEnv('MONGOMS_DOWNLOAD_DIR', empty);
    vi.stubEnv('MONGOMS_SYSTEM_BINARY', undefined);
    // Its data folder goes here, to be found if it is left behind.
    vi.stubEnv('TMPDIR', empty);
    // It also warns on the console with a stack; its reason is in the error we check.
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    // No MONGODB_URI, a PATH without mongod or go, and an empty cache: nothing can work.
    const env = { PATH: empty, HOME: empty, XDG_CACHE_HOME: empty };

    const error = await startTestMongo({ env, log: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoTestMongoError);
    expect((error as NoTestMongoError).attempts.map((a) => a.strategy)).toEqual([...STRATEGIES]);
    const message = (error as Error).message;
    expect(message).toContain('external: MONGODB_URI is not set');
    expect(message).toContain('mongod: no mongod on PATH');
    expect(message).toContain('ferretdb: go is not on PATH');
    expect(message).toMatch(/memory-server: mongodb-memory-server could not start a mongod: .+/);
    expect((await readdir(empty)).filter((name) => name.startsWith('mongo-mem-'))).toEqual([]);
  });

  it('lists the strategies it was told not to try', async () => {
    const env = { PATH: '/nonexistent' };
    const error = await startTestMongo({ strategies: ['mongod'], env, log: false }).catch(
      (e: unknown) => e,
    );
    expect((error as Error).message).toContain('mongod: no mongod on PATH');
    for (const strategy of ['external', 'ferretdb', 'memory-server']) {
      expect((error as Error).message).toContain(`${strategy}: not tried`);
    }
  });

  it('reads the strategies from ANIMAL_STORE_TEST_DB', () => {
    expect(strategiesFromEnv({})).toEqual([...STRATEGIES]);
    expect(strategiesFromEnv({ ANIMAL_STORE_TEST_DB: 'ferretdb, mongod' })).toEqual([
      'ferretdb',
      'mongod',
    ]);
    expect(() => strategiesFromEnv({ ANIMAL_STORE_TEST_DB: 'postgres' })).toThrow(
      /unknown strategy "postgres"/,
    );
  });

  it('says which server it used on one line', async () => {
    const lines: string[] = [];
    await start({
      env: { ...process.env, MONGODB_URI: inject('mongoUri') },
      log: (line) => lines.push(line),
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^test-db: using MONGODB_URI mongodb:\/\/.* \(database animal_store_test_\w+\)$/,
    );
  });
});

const FAKE_MONGOD = `#!/bin/sh
# Stand-in for mongod: checks the flags test-db passes, then runs FerretDB in its place.
port= dbpath= bind=
while [ $# -gt 0 ]; do
  case "$1" in
    --port) port=$2; shift ;;
    --dbpath) dbpath=$2; shift ;;
    --bind_ip) bind=$2; shift ;;
  esac
  shift
done
if [ "$bind" != 127.0.0.1 ] || [ -z "$port" ] || [ ! -d "$dbpath" ]; then
  echo "stand-in mongod: bad flags (bind_ip=$bind port=$port dbpath=$dbpath)" >&2
  exit 1
fi
exec "$FERRETDB" --listen-addr=127.0.0.1:$port --sqlite-url=file:$dbpath/
`;
