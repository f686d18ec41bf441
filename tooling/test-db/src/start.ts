import { randomBytes } from 'node:crypto';
import { useExternal } from './external.js';
import { startFerretdb } from './ferretdb.js';
import { startMemoryServer } from './memory-server.js';
import { startMongod } from './mongod.js';
import {
  STRATEGIES,
  type StartedServer,
  type Strategy,
  type StrategyContext,
  type TestMongo,
  type TestMongoOptions,
  Unavailable,
} from './types.js';

const START: Record<Strategy, (context: StrategyContext) => Promise<StartedServer>> = {
  external: useExternal,
  mongod: startMongod,
  ferretdb: startFerretdb,
  'memory-server': startMemoryServer,
};

/** One failed way to get a server, and why. */
export interface Attempt {
  strategy: Strategy;
  reason: string;
}

/** Thrown when no strategy yields a server; its message lists every attempt. */
export class NoTestMongoError extends Error {
  override name = 'NoTestMongoError';
  constructor(readonly attempts: readonly Attempt[]) {
    super(
      [
        'test-db: no MongoDB-compatible server could be had. Tried, in order:',
        ...attempts.map(
          ({ strategy, reason }) => `  - ${strategy}: ${reason.replace(/\n/g, '\n    ')}`,
        ),
        'Fix one of them: set MONGODB_URI=mongodb://127.0.0.1:27017, put mongod on PATH, or put Go >= 1.24 on PATH (FerretDB is built from tooling/test-db/ferretdb).',
      ].join('\n'),
    );
  }
}

/** Start (or find) a MongoDB-compatible server, trying each strategy in order; see README.md. */
export async function startTestMongo(options: TestMongoOptions = {}): Promise<TestMongo> {
  const env = options.env ?? process.env;
  const strategies = options.strategies ?? strategiesFromEnv(env);
  const log = options.log === false ? () => {} : (options.log ?? logToStderr);
  const context: StrategyContext = {
    env,
    log,
    readyTimeoutMs: options.readyTimeoutMs ?? 5 * 60_000,
  };
  const dbName = options.dbName ?? uniqueDbName();
  const attempts: Attempt[] = [];
  for (const strategy of strategies) {
    let server: StartedServer;
    try {
      server = await START[strategy](context);
    } catch (error) {
      // A MONGODB_URI that is set but does not answer is a mistake to report, not to route around.
      if (strategy === 'external' && !(error instanceof Unavailable)) throw error;
      attempts.push({ strategy, reason: (error as Error).message });
      continue;
    }
    log(`test-db: using ${server.description} at ${server.uri} (database ${dbName})`);
    const mongo: TestMongo = { uri: server.uri, kind: strategy, dbName, stop: server.stop };
    if (server.outage) mongo.outage = server.outage;
    return mongo;
  }
  for (const strategy of STRATEGIES) {
    if (!strategies.includes(strategy)) {
      attempts.push({ strategy, reason: 'not tried (not in the strategies asked for)' });
    }
  }
  throw new NoTestMongoError(attempts);
}

/** The strategies named in ANIMAL_STORE_TEST_DB (comma-separated), or all of them in order. */
export function strategiesFromEnv(env: NodeJS.ProcessEnv = process.env): Strategy[] {
  const value = env.ANIMAL_STORE_TEST_DB?.trim();
  if (!value) return [...STRATEGIES];
  const names = value.split(',').map((name) => name.trim());
  for (const name of names) {
    if (!(STRATEGIES as readonly string[]).includes(name)) {
      throw new Error(
        `ANIMAL_STORE_TEST_DB names an unknown strategy "${name}"; known: ${STRATEGIES.join(', ')}`,
      );
    }
  }
  return names as Strategy[];
}

/** A fresh database name, `animal_store_test_<12 hex>`, so parallel test files do not collide. */
export function uniqueDbName(prefix = 'animal_store_test'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

function logToStderr(line: string): void {
  process.stderr.write(`${line}\n`);
}
