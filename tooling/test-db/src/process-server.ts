import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
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

const STOP_GRACE_MS = 10_000;
const TAIL_CHARS = 4_000;

// Children still running when this process exits are killed, so a crashed test run leaves none.
const liveChildren = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of liveChildren) child.kill('SIGKILL');
});

/** A free TCP port on 127.0.0.1 (listen on port 0, read it, close). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no port was assigned'))));
    });
  });
}

/** Start `spec` on a fresh temp data dir and a free port, and wait until it answers `ping`. */
export async function startProcessServer(spec: ProcessServerSpec): Promise<ProcessServer> {
  const dataDir = await mkdtemp(join(tmpdir(), `animal-store-${spec.name}-`));
  const port = await freePort();
  const uri = `mongodb://127.0.0.1:${port}/`;
  let running: Running | undefined;

  const up = async () => {
    if (running && running.exitCode === undefined) return;
    running = launch(spec, port, dataDir);
    try {
      await waitUntilReady(uri, port, running, spec);
    } catch (error) {
      await terminate(running);
      throw error;
    }
  };
  const down = async () => {
    if (running) await terminate(running);
  };

  try {
    await up();
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

interface Running {
  child: ChildProcess;
  exited: Promise<void>;
  exitCode: number | string | undefined;
  tail(): string;
}

function launch(spec: ProcessServerSpec, port: number, dataDir: string): Running {
  const child = spawn(spec.command, spec.args(port, dataDir), {
    env: spec.env,
    stdio: [spec.stdinPipe ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  liveChildren.add(child);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-TAIL_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const running: Running = {
    child,
    exitCode: undefined,
    tail: () => output.trim(),
    exited: new Promise((resolve) => {
      child.once('error', (error) => {
        keep(Buffer.from(`\n${error.message}`));
        running.exitCode ??= 'spawn error';
        liveChildren.delete(child);
        resolve();
      });
      child.once('exit', (code, signal) => {
        running.exitCode ??= code ?? signal ?? 'unknown';
        liveChildren.delete(child);
        resolve();
      });
    }),
  };
  return running;
}

async function terminate(running: Running): Promise<void> {
  if (running.exitCode !== undefined) return;
  running.child.kill('SIGTERM');
  const timer = setTimeout(() => running.child.kill('SIGKILL'), STOP_GRACE_MS);
  await running.exited;
  clearTimeout(timer);
}

async function waitUntilReady(
  uri: string,
  port: number,
  running: Running,
  spec: ProcessServerSpec,
): Promise<void> {
  const deadline = Date.now() + spec.readyTimeoutMs;
  let lastError = 'no answer yet';
  while (Date.now() < deadline) {
    if (running.exitCode !== undefined) {
      throw new Error(
        `${spec.name} exited (${running.exitCode}) before it was ready; its output ends:\n${running.tail()}`,
      );
    }
    if (await portAccepts(port)) {
      try {
        await ping(uri, 2_000);
        return;
      } catch (error) {
        lastError = (error as Error).message;
      }
    }
    await sleep(100);
  }
  throw new Error(
    `${spec.name} did not answer ping on ${uri} within ${spec.readyTimeoutMs} ms (${lastError}); its output ends:\n${running.tail()}`,
  );
}

function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1', () => done(true));
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
