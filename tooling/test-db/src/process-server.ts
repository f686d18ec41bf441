import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type LoggedProcess,
  listensOn,
  onFreePort,
  spawnLogged,
  waitUntil,
} from '@animal-store/test-support';
import { MongoClient } from 'mongodb';
import type { Outage } from './types.js';

/** What it takes to run one server process that listens on 127.0.0.1:<port> and keeps its data in a dir. */
export interface ProcessServerSpec {
  /** Short name for messages, e.g. `mongod`. */
  name: string;
  command: string;
  args(port: number, dataDir: string): string[];
  env: NodeJS.ProcessEnv;
  /** Keep a pipe on stdin open so the child can stop when this process dies. */
  stdinPipe?: boolean;
  readyTimeoutMs: number;
}

/** A started server process we own: its URI, an outage switch and a stop that removes its data. */
export interface ProcessServer {
  uri: string;
  port: number;
  dataDir: string;
  outage: Outage;
  stop(): Promise<void>;
}

const TAIL_CHARS = 4_000;

/** Start `spec` on a fresh temp data dir and a free port, and wait until it answers `ping`. */
export async function startProcessServer(spec: ProcessServerSpec): Promise<ProcessServer> {
  const dataDir = await mkdtemp(join(tmpdir(), `animal-store-${spec.name}-`));
  let port = 0;
  let uri = '';
  let running: LoggedProcess | undefined;

  const up = async () => {
    if (running && running.exitStatus() === undefined) return;
    const started = launch(spec, port, dataDir);
    running = started;
    await waitUntil(
      started,
      `${spec.name} (answering ping on ${uri})`,
      async () =>
        // Its own listener: another test's server that took the port meanwhile would answer the
        // ping too and share its data; this one fails with EADDRINUSE (on a first start, onFreePort
        // starts it again on another port).
        (listensOn(started.child.pid as number, port) &&
          (await ping(uri, 2_000).then(
            () => true,
            () => false,
          ))) ||
        undefined,
      spec.readyTimeoutMs,
    );
  };
  const down = async () => {
    if (running) await running.stop();
  };

  try {
    // The first start takes a free port; a start after an outage keeps it.
    await onFreePort(async (free) => {
      port = free;
      uri = `mongodb://127.0.0.1:${port}/`;
      await up();
    });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    uri,
    port,
    dataDir,
    outage: { down, up },
    stop: async () => {
      await down();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function launch(spec: ProcessServerSpec, port: number, dataDir: string): LoggedProcess {
  return spawnLogged(spec.command, spec.args(port, dataDir), {
    env: spec.env,
    stdin: spec.stdinPipe ? 'pipe' : 'ignore',
    keep: TAIL_CHARS,
  });
}

/** Send `ping` to the server at `uri` through the official driver; rejects when it does not answer. */
export async function ping(uri: string, timeoutMs: number): Promise<void> {
  const client = new MongoClient(uri, {
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
  });
  try {
    await client.db('admin').command({ ping: 1 });
  } finally {
    await client.close();
  }
}
