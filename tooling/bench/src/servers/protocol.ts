/** What the orchestrator tells a server child, through the `BENCH_SERVER` environment variable. */
export interface ServerSpec {
  /** Pets the child seeds its in-memory store with before listening. */
  pets: number;
  apiKey: string;
  /** The replay limit only: the API's answer to each request of the scenario. */
  replay?: ReplayAnswer[];
}

/** One answer of the API as the replay limit sends it again. */
export interface ReplayAnswer {
  method: string;
  path: string;
  status: number;
  /** As received: names in their case, in their order. */
  headers: [string, string][];
  /** The body bytes, base64. */
  body: string;
}

/** What a child sends the orchestrator once it listens. */
export interface ReadyMessage {
  type: 'ready';
  port: number;
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
