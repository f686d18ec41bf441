/** The ways to get a server, in the order they are tried by default. */
export const STRATEGIES = ['external', 'mongod', 'ferretdb', 'memory-server'] as const;

/** One way to get a MongoDB-compatible server; also the `kind` of the server it yields. */
export type Strategy = (typeof STRATEGIES)[number];

/** Stops and restarts a server we own, keeping its port and its data. */
export interface Outage {
  /** Stop the server process (SIGTERM) and wait until it has exited. */
  down(): Promise<void>;
  /** Start it again on the same port and data dir, and wait until it answers `ping`. */
  up(): Promise<void>;
}

/** A MongoDB-compatible server for one test file, or for a human. */
export interface TestMongo {
  /** Connection string of the server (no database in it). */
  uri: string;
  /** Which strategy yielded it. */
  kind: Strategy;
  /** A database name of its own: `animal_store_test_<random>` unless one was asked for. */
  dbName: string;
  /** Stop what was started; does nothing to a server given by MONGODB_URI. */
  stop(): Promise<void>;
  /** Only for servers we own (not `external`). */
  outage?: Outage;
}

export interface TestMongoOptions {
  /**
   * Strategies to try, in order. Default: the comma-separated list in ANIMAL_STORE_TEST_DB, else
   * all of STRATEGIES.
   */
  strategies?: readonly Strategy[];
  /**
   * Environment to read (MONGODB_URI, ANIMAL_STORE_TEST_DB, PATH, XDG_CACHE_HOME, HOME) and to give
   * the server processes. Default: process.env.
   */
  env?: NodeJS.ProcessEnv;
  /** Database name to hand out; default a unique `animal_store_test_<random>`. */
  dbName?: string;
  /**
   * How long a started server may take to answer `ping` (MONGODB_URI: at most 10 s). Default
   * 5 minutes: the bound only catches a hang (a server that dies fails at once), never a busy
   * machine's slow start.
   */
  readyTimeoutMs?: number;
  /**
   * Where the line saying which server is used (and a FerretDB build notice) goes. Default: one
   * line on stderr. `false`: nowhere.
   */
  log?: ((line: string) => void) | false;
}

/** What a strategy yields before the orchestrator adds a database name. */
export interface StartedServer {
  uri: string;
  /** For the log line, e.g. `FerretDB v1.24.2 (SQLite)`. */
  description: string;
  stop(): Promise<void>;
  outage?: Outage;
}

/** What every strategy gets. */
export interface StrategyContext {
  env: NodeJS.ProcessEnv;
  readyTimeoutMs: number;
  log(line: string): void;
}

/** Thrown by a strategy that cannot be had here; `message` says why. */
export class Unavailable extends Error {
  override name = 'Unavailable';
}
