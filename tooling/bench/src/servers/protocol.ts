/** What the orchestrator tells a server child, through the `BENCH_SERVER` environment variable. */
export interface ServerSpec {
  /** The store the child builds and seeds before listening. */
  store: StoreSpec;
  /** How many pets to seed. */
  pets: number;
  apiKey: string;
  /** For the replay server: the API's answer to each request of the scenario. */
  replay?: ReplayAnswer[];
}

/** One answer of the API as the replay server sends it again. */
export interface ReplayAnswer {
  method: string;
  path: string;
  status: number;
  /** As received: names in their case, in their order. */
  headers: [string, string][];
  /** The body bytes, base64. */
  body: string;
}

export type StoreSpec =
  | { kind: 'memory' }
  | {
      kind: 'mongo';
      uri: string;
      dbName: string;
    };

/** The message a child sends once it listens. */
export interface ReadyMessage {
  type: 'ready';
  port: number;
  /** Time spent seeding the store, in milliseconds. */
  seedMs: number;
}

/** What the orchestrator asks a child for between runs. */
export interface StatsRequest {
  type: 'stats';
}

/** A child's answer: database commands it has sent so far, by name. */
export interface StatsMessage {
  type: 'stats';
  commands: Record<string, number>;
}

export const SERVER_SPEC_ENV = 'BENCH_SERVER';

/** Reads the spec the orchestrator passed; children are not meant to be started by hand. */
export function readServerSpec(env: NodeJS.ProcessEnv = process.env): ServerSpec {
  const raw = env[SERVER_SPEC_ENV];
  if (raw === undefined) {
    throw new Error(
      `${SERVER_SPEC_ENV} is not set: this file is started by the bench orchestrator`,
    );
  }
  return JSON.parse(raw) as ServerSpec;
}

/** The servers `floor` compares, passed to `floor-server.js` as its argument. */
export const FLOOR_VARIANTS = ['node', 'koa-write', 'koa-body'] as const;
export type FloorVariant = (typeof FLOOR_VARIANTS)[number];
