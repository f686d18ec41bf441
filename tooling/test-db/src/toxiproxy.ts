import {
  type LoggedProcess,
  onFreePort,
  START_TIMEOUT_MS,
  spawnLogged,
  waitUntil,
} from '@animal-store/test-support';
import { type GoBuildContext, type GoTool, goToolBinary } from './go-build.js';
import { Unavailable } from './types.js';

/** The Toxiproxy release that tooling/test-db/toxiproxy/go.mod pins. */
export const TOXIPROXY_VERSION = 'v2.12.0';

const TOXIPROXY: GoTool = { name: 'toxiproxy', title: 'Toxiproxy', version: TOXIPROXY_VERSION };

/** The toxics of Toxiproxy's README, by type, with their attributes. */
export type Toxic = { name: string; stream: 'upstream' | 'downstream'; toxicity?: number } & (
  | { type: 'latency'; attributes: { latency: number; jitter?: number } }
  | { type: 'timeout'; attributes: { timeout: number } }
  | { type: 'reset_peer'; attributes: { timeout: number } }
  | {
      type: 'slicer';
      attributes: { average_size: number; size_variation?: number; delay?: number };
    }
  | { type: 'limit_data'; attributes: { bytes: number } }
  | { type: 'bandwidth'; attributes: { rate: number } }
);

/** One proxy of a Toxiproxy: 127.0.0.1:`port` to its upstream, with toxics added and removed. */
export interface FaultyLink {
  readonly name: string;
  /** Where clients connect, on 127.0.0.1. */
  readonly port: number;
  addToxic(toxic: Toxic): Promise<void>;
  removeToxic(name: string): Promise<void>;
  /** Disabled, it closes every connection and refuses new ones (a partition); enabled, it accepts again. */
  setEnabled(enabled: boolean): Promise<void>;
}

/** A running Toxiproxy server we own, driven over its HTTP API on 127.0.0.1. */
export interface Toxiproxy {
  /** Its HTTP API, e.g. `http://127.0.0.1:40123`. */
  readonly api: string;
  readonly process: LoggedProcess;
  /** A new proxy from a free port of 127.0.0.1 to `upstream` (`host:port`). */
  link(name: string, upstream: string): Promise<FaultyLink>;
  stop(): Promise<void>;
}

/**
 * Path of the Toxiproxy binary built from tooling/test-db/toxiproxy, built once with `go build`
 * into the user cache dir, as FerretDB's is, and reused after.
 */
export async function toxiproxyBinary(context: GoBuildContext): Promise<string> {
  try {
    return await goToolBinary(TOXIPROXY, context);
  } catch (error) {
    if (error instanceof Unavailable) throw new Error(`no Toxiproxy: ${error.message}`);
    throw error;
  }
}

/**
 * Starts Toxiproxy (built once with Go, as FerretDB is) with its HTTP API on a free port of
 * 127.0.0.1; fails when it cannot be built or started.
 */
export async function startToxiproxy(context: Partial<GoBuildContext> = {}): Promise<Toxiproxy> {
  const env = context.env ?? process.env;
  const log = context.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const binary = await toxiproxyBinary({ env, log });
  return onFreePort(async (port) => {
    const api = `http://127.0.0.1:${port}`;
    const child = spawnLogged(
      binary,
      [`--listen-addr=127.0.0.1:${port}`, '--stop-on-stdin-close'],
      {
        env,
        stdin: 'pipe',
        keep: 4_000,
      },
    );
    await waitUntil(
      child,
      `Toxiproxy ${TOXIPROXY_VERSION} (its API on ${api})`,
      async () => (await answers(`${api}/version`)) || undefined,
      START_TIMEOUT_MS,
    );
    return {
      api,
      process: child,
      link: (name, upstream) => createLink(api, name, upstream),
      stop: () => child.stop(),
    };
  });
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

/** Sends `body` as JSON to Toxiproxy's API; fails on any answer but 2xx. */
async function call(api: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${api}${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`Toxiproxy ${method} ${path}: ${res.status} ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

async function createLink(api: string, name: string, upstream: string): Promise<FaultyLink> {
  const created = (await call(api, 'POST', '/proxies', {
    name,
    listen: '127.0.0.1:0',
    upstream,
    enabled: true,
  })) as { listen: string };
  const port = Number(created.listen.split(':').at(-1));
  const path = `/proxies/${encodeURIComponent(name)}`;
  return {
    name,
    port,
    async addToxic(toxic) {
      await call(api, 'POST', `${path}/toxics`, { toxicity: 1, ...toxic });
    },
    async removeToxic(toxic) {
      await call(api, 'DELETE', `${path}/toxics/${encodeURIComponent(toxic)}`);
    },
    async setEnabled(enabled) {
      await call(api, 'PATCH', path, { enabled });
    },
  };
}
