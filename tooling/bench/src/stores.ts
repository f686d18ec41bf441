import { startTestMongo, type TestMongo } from '@animal-store/test-db';
import type { StoreSpec } from './servers/protocol.js';
import type { Settings, StoreKind } from './settings.js';

/** A store kind the orchestrator can hand to server children, one database per child. */
export interface BenchStore {
  kind: StoreKind;
  /** What serves it, for the report (e.g. `ferretdb`). */
  server: string;
  /** The store for one child; `name` keeps children's data apart (one database each). */
  spec(name: string): StoreSpec;
  /** The settings runs on this store use, and why they differ from the command line's. */
  tune(settings: Settings): { settings: Settings; note?: string };
  close(): Promise<void>;
}

/**
 * FerretDB 1.x on SQLite answers every query by reading the whole collection (no _id or index
 * push-down: measured here, a find by _id over 1 000 pets takes ~25 ms, over 5 000 ~110 ms). Its
 * capacity is a few dozen queries a second, so 1 000 requests in flight would only time out:
 * runs on it keep 10 connections without pipelining, and stores too large to query in time are
 * left out of the growth runs.
 */
function tuneForFerretdb(settings: Settings): { settings: Settings; note: string } {
  const cap = settings.smoke ? 2_000 : 5_000;
  const growth = settings.growth.filter((pets) => pets <= cap);
  const left = settings.growth.filter((pets) => pets > cap);
  if (left.length > 0 && !growth.includes(cap)) growth.push(cap);
  return {
    settings: {
      ...settings,
      connections: Math.min(settings.connections, 10),
      pipelining: 1,
      durationS: Math.max(settings.durationS, settings.smoke ? 1.5 : 5),
      warmupS: Math.max(settings.warmupS, 1),
      // A smoke run proves the pipeline: a few requests per run are enough on a store this slow.
      requestsPerRun:
        settings.requestsPerRun === undefined ? undefined : Math.min(settings.requestsPerRun, 20),
      growth,
    },
    note:
      'MongoDB here is FerretDB 1.24 on SQLite (no mongod on this machine): it reads the whole ' +
      'collection for every query, so these runs use -c 10 without pipelining' +
      (left.length > 0
        ? `, and growth stops at ${cap} pets (${left.join(', ')} would take hours)`
        : '') +
      '. Point MONGODB_URI at a real MongoDB for the full runs.',
  };
}

/**
 * The in-memory store, or MongoDB through the test database helper (MONGODB_URI, a mongod on
 * PATH, or FerretDB built on first use).
 */
export async function openBenchStore(
  kind: StoreKind,
  log: (line: string) => void,
): Promise<BenchStore> {
  if (kind === 'memory') {
    return {
      kind,
      server: 'in-process',
      spec: () => ({ kind: 'memory' }),
      tune: (settings) => ({ settings }),
      close: async () => {},
    };
  }
  const mongo: TestMongo = await startTestMongo({ log, readyTimeoutMs: 5 * 60_000 });
  return {
    kind,
    server: mongo.kind,
    spec: (name) => ({ kind: 'mongo', uri: mongo.uri, dbName: name }),
    tune: (settings) => (mongo.kind === 'ferretdb' ? tuneForFerretdb(settings) : { settings }),
    close: () => mongo.stop(),
  };
}
