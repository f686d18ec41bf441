import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { PET_STATUSES, type PetStatus } from '@animal-store/contract';
import {
  API_MAIN,
  listensOn,
  onFreePort,
  spawnLogged,
  waitUntil,
} from '@animal-store/test-support';
import { Pool } from 'undici';
import type { LoadGroup } from './load-groups.js';
import { processCpuByThread, processCpuSeconds, type ThreadCpu } from './process-cpu.js';
import { BENCH_API_KEY, type BenchRequest } from './scenario.js';

const own = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/** A server the bench runs: its name in the report, its script, what it adds to its environment. */
export interface ServerDef {
  /**
   * `api`, `untraced`, `traced`, `unsampled`, `undone`, `control`, `koa`, `fastify`, `limit`,
   * `koa-floor` or `fastify-floor`.
   */
  name: string;
  /** The servers it runs beside at saturation (`load-groups.ts`). */
  group: LoadGroup;
  script: string;
  env: Readonly<Record<string, string>>;
  /** Node options before the script (the RSS measure's garbage collection on a signal). */
  nodeArgs?: readonly string[];
  /** Whether it holds pets (seeded over HTTP); the replay limit holds none. */
  stores: boolean;
  /** How its answers must match the API's (`verify.ts`). */
  match: 'exact' | 'unordered';
}

/** The API's environment: the in-memory store, the bench's key, no rate limit, logs on. */
const API_ENV = { API_KEYS: BENCH_API_KEY, RATE_LIMIT_REQUESTS: '0', LOG_LEVEL: 'info' };

/**
 * The servers of a run, in the order of the first round. The `frameworks` group: the API, the Koa
 * and Fastify peers, the replay limit, and the Koa and Fastify floors (these three send the API's
 * recorded answers, `replay-answers.ts`). The `tracing` group: the API again (`untraced`), the API
 * traced at `tracing` (its spans go to `sinkOrigin`), the API traced at a ratio of 0 (every
 * request left out by the sampler: what tracing costs a request it does not record), the
 * `undone` build traced alike (a change kept for speed undone), and `control`, a second untraced
 * API (what a pair of this group's servers differs by when nothing differs).
 */
export function lineup(
  tracing: number | undefined,
  sinkOrigin: string,
  extra: { undone?: string; control?: boolean } = {},
): ServerDef[] {
  const api = { script: API_MAIN, stores: true, match: 'exact' } as const;
  const servers: ServerDef[] = [{ name: 'api', group: 'frameworks', env: API_ENV, ...api }];
  if (tracing !== undefined) {
    const env = {
      ...API_ENV,
      OTEL_EXPORTER_OTLP_ENDPOINT: sinkOrigin,
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: String(tracing),
    };
    const unsampled = { ...env, OTEL_TRACES_SAMPLER_ARG: '0' };
    servers.push(
      { name: 'untraced', group: 'tracing', env: API_ENV, ...api },
      { name: 'traced', group: 'tracing', env, ...api },
      { name: 'unsampled', group: 'tracing', env: unsampled, ...api },
    );
    if (extra.undone !== undefined) {
      servers.push({ ...api, name: 'undone', group: 'tracing', script: extra.undone, env });
    }
    if (extra.control) {
      servers.push({ name: 'control', group: 'tracing', env: API_ENV, ...api });
    }
  }
  /** A server of `src/peers/`: one of the two peers, the replay limit or one of the floors. */
  const peer = (name: string, file: string, match: ServerDef['match']): ServerDef => ({
    name,
    group: 'frameworks',
    script: own(`./peers/${file}.js`),
    env: { API_KEY: BENCH_API_KEY },
    stores: name === 'koa' || name === 'fastify',
    match,
  });
  servers.push(
    peer('koa', 'koa', 'exact'),
    peer('fastify', 'fastify', 'unordered'),
    peer('limit', 'replay', 'exact'),
    peer('koa-floor', 'koa-floor', 'exact'),
    peer('fastify-floor', 'fastify-floor', 'unordered'),
  );
  return servers;
}

/** A local OTLP receiver for the traced API: it reads every export and discards it. */
export async function spanSink(): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** When pinning, the driver (this process) runs on CPU 0 and the server on CPU 1. */
const [DRIVER_CPU, SERVER_CPU] = [0, 1];

/** Pins this process (the driver) to its CPU; false when that is not possible here. */
export function pinDriver(): boolean {
  if (cpus().length < 2) return false;
  const args = ['-a', '-p', '-c', String(DRIVER_CPU), String(process.pid)];
  return spawnSync('taskset', args, { stdio: 'ignore' }).status === 0;
}

/** A running server child. */
export interface ServerChild {
  name: string;
  origin: string;
  /** CPU time (every thread's) the child has used so far, in seconds. */
  cpuSeconds(): number;
  /** That CPU time by the kind of thread (undefined without scheduler statistics). */
  cpuByThread(): ThreadCpu | undefined;
  /**
   * Resolves once the child has (next to) stopped using CPU: it is done with what it was sent.
   * At once for a child started without `settle`: only a measurement needs the wait.
   */
  idle(): Promise<void>;
  /** Its resident set size now, or its peak (`VmHWM`), in MiB. */
  rssMb(which?: 'VmRSS' | 'VmHWM'): number;
  /** Sends it a signal (the RSS measure's garbage collection). */
  signal(name: NodeJS.Signals): void;
  /** Resolves once the child has written `text` to its stderr. */
  stderrUntil(text: string): Promise<void>;
  stop(): Promise<void>;
}

// Idle: at most 15 ms of CPU in a 100 ms window. Waiting ends after a minute anyway: a child
// still busy then is not finishing leftovers, and its next run shows it.
const IDLE_WINDOW_MS = 100;
const IDLE_CPU_SECONDS = 0.015;
const IDLE_WAIT_MS = 60_000;

/** Resolves once `cpuSeconds` (a process's CPU time) stops rising: it has no work left. */
export async function untilIdle(cpuSeconds: () => number): Promise<void> {
  const deadline = performance.now() + IDLE_WAIT_MS;
  let before = cpuSeconds();
  while (performance.now() < deadline) {
    await sleep(IDLE_WINDOW_MS);
    const now = cpuSeconds();
    if (now - before < IDLE_CPU_SECONDS) return;
    before = now;
  }
}

/** How a server child is started: pinned to the server CPU, waited for to go idle (`idle()`). */
export interface StartOptions {
  pin: boolean;
  settle: boolean;
}

/**
 * Starts `def` (on the server CPU when pinning) on a free port, with `extraEnv`, and
 * returns it once it accepts connections. Its stdout (the access log) goes to /dev/null:
 * written for real, kept nowhere. `BENCH_CPU_PROF=DIR` has it write a V8 CPU profile there.
 */
export function startServer(
  def: ServerDef,
  { pin, settle }: StartOptions,
  extraEnv: Record<string, string> = {},
): Promise<ServerChild> {
  // On a port free a moment ago, tried again on another when it is taken meanwhile.
  return onFreePort(async (port) => {
    const dir = process.env.BENCH_CPU_PROF;
    const name = `--cpu-prof-name=${def.name}-${Date.now()}.cpuprofile`;
    const profile = dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, name] : [];
    const node = [process.execPath, ...profile, ...(def.nodeArgs ?? []), def.script];
    const [command, ...args] = pin ? ['taskset', '-c', String(SERVER_CPU), ...node] : node;
    const env = { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port) };
    const child = spawnLogged(command as string, args, {
      env: { ...env, ...def.env, ...extraEnv },
      stdout: 'ignore',
      keep: 4_000,
    });
    const pid = child.child.pid as number;
    // The child itself, not whatever took the port meanwhile: a stranger answering in its stead
    // would be measured (and refuse the bench's key); the child, failing with EADDRINUSE, is
    // started again on another port.
    await waitUntil(child, def.name, () => listensOn(pid, port) || undefined);
    const status = () => readFileSync(`/proc/${pid}/status`, 'utf8');
    return {
      name: def.name,
      origin: `http://127.0.0.1:${port}`,
      cpuSeconds: () => processCpuSeconds(pid),
      cpuByThread: () => processCpuByThread(pid),
      idle: () => (settle ? untilIdle(() => processCpuSeconds(pid)) : Promise.resolve()),
      rssMb: (which = 'VmRSS') =>
        Number(new RegExp(`^${which}:\\s+(\\d+) kB`, 'm').exec(status())?.[1]) / 1024,
      signal: (name) => child.child.kill(name),
      async stderrUntil(text) {
        await child.untilStderr((stderr) => stderr.includes(text) || undefined);
      },
      stop: child.stop,
    };
  });
}

/** The n-th seeded pet (1-based): the same on every server, so responses match byte for byte. */
function seedPet(n: number): { name: string; categoryId: number; status: PetStatus } {
  return {
    name: `pet-${n}`,
    categoryId: 1 + (n % 7),
    status: PET_STATUSES[n % PET_STATUSES.length] as PetStatus,
  };
}

/** The create request of the n-th seeded pet. */
export function createRequest(n: number): BenchRequest {
  return {
    method: 'POST',
    path: '/v1/pets',
    headers: { Authorization: `Bearer ${BENCH_API_KEY}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(seedPet(n)),
  };
}

/**
 * Creates pets `from..to` through `POST /v1/pets` on `connections` connections. With one, the
 * pets are created in order and every server gives pet n the id n, so their answers match.
 */
export async function seed(origin: string, from: number, to: number, connections = 1) {
  const pool = new Pool(origin, { connections });
  let next = from;
  const worker = async () => {
    while (next <= to) {
      const { method, path, headers, body } = createRequest(next++);
      const response = await pool.request({ method, path, headers, body });
      await response.body.dump();
      if (response.statusCode !== 201) {
        throw new Error(`${origin}: creating a pet answered ${response.statusCode}`);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, worker));
  } finally {
    await pool.destroy();
  }
}
