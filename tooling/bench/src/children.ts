import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { processCpuSeconds } from './process-cpu.js';
import { BENCH_API_KEY } from './scenario.js';
import { type ReadyMessage, SERVER_SPEC_ENV, type ServerSpec } from './servers/protocol.js';
import type { Settings } from './settings.js';

/** A server child's script in this package (`dist/servers/`). */
export const serverEntry = (file: string) =>
  fileURLToPath(new URL(`./servers/${file}`, import.meta.url));

/** A server the bench runs: what it is called in the report, and how it is started. */
export interface ServerDef {
  /** `api`, `baseline`, `fastify`, `limit`, or an API variant's name (`api on Node 24.1.0`). */
  name: string;
  /** The child's script. */
  entry: string;
  /** The Node.js binary that runs it. */
  node: string;
  /** Its version (`v20.20.2`). */
  nodeVersion: string;
  /** Variables added to the bench's own environment. */
  env?: Readonly<Record<string, string>>;
  /**
   * How its answers are checked against the API's (`verify.ts`): `exact` (status, header names in
   * order, values, body bytes), `unordered` (the same headers in any order and case: another
   * framework), `body` (status and body bytes: the API at another commit).
   */
  verify: 'exact' | 'unordered' | 'body';
}

/** The version `node --version` prints for a binary; throws when it does not run. */
export function nodeVersionOf(node: string): string {
  const run = spawnSync(node, ['--version'], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${node} --version failed: ${run.error ?? run.stderr}`);
  return run.stdout.trim();
}

/** When pinning, the driver runs on CPU 0 and every server on CPU 1, so they do not trade cores. */
const [DRIVER_CPU, SERVER_CPU] = [0, 1];

/** Pins this process (the driver) to its CPU; false when that is not possible here. */
export function pinDriver(): boolean {
  if (cpus().length < 2) return false;
  const args = ['-a', '-p', '-c', String(DRIVER_CPU), String(process.pid)];
  return spawnSync('taskset', args, { stdio: 'ignore' }).status === 0;
}

/** A server child as the orchestrator sees it. */
export interface ServerChild {
  kind: string;
  origin: string;
  /** CPU time (user + system) the child has used so far, in seconds. */
  cpuSeconds(): number;
  /** Resolves once the child has used (next to) no CPU for a while: done with what it was sent. */
  idle(): Promise<void>;
  /** Peak resident set size since the child was ready (seeding aside), in MiB. */
  peakRssMb(): number;
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();

/**
 * Kills every child still running: the orchestrator never leaves a server behind. A child whose
 * orchestrator dies without this (a signal) stops by itself when its IPC channel closes.
 */
export function killAllChildren(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

// Idle: at most 15 ms of CPU in a 100 ms window (one clock tick and some, where CPU time comes in
// ticks). Waiting stops after a minute in any case: a child still busy then is not finishing
// leftovers, and its next run shows it.
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

/**
 * Starts a server child (on the server CPU when pinning), its store seeded with `spec.pets` pets,
 * and returns it once it listens.
 */
export async function startServerChild(
  def: ServerDef,
  spec: Omit<ServerSpec, 'apiKey'>,
  settings: Pick<Settings, 'pin'>,
): Promise<ServerChild> {
  const kind = def.name;
  // BENCH_CPU_PROF=DIR: every server but the replay limit writes a V8 CPU profile to DIR when it
  // stops (named after the server, spaces and slashes as dashes).
  const dir = process.env.BENCH_CPU_PROF;
  const name = `--cpu-prof-name=${kind.replace(/[\s/%]+/g, '-')}-${Date.now()}.cpuprofile`;
  const profile = dir && kind !== 'limit' ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, name] : [];
  const node = [def.node, ...profile, def.entry];
  const [command, ...args] = settings.pin ? ['taskset', '-c', String(SERVER_CPU), ...node] : node;
  // stdout (the JSON access log) goes to /dev/null: written for real, kept nowhere.
  const child = spawn(command as string, args, {
    env: {
      ...process.env,
      ...def.env,
      [SERVER_SPEC_ENV]: JSON.stringify({ ...spec, apiKey: BENCH_API_KEY }),
    },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  live.add(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const exited = once(child, 'exit').finally(() => live.delete(child));
  // Seeding a million pets takes seconds on a busy machine: the bound only catches a hang.
  const signal = AbortSignal.timeout(10 * 60_000);
  const failed = exited.then(([code]) => {
    throw new Error(`${kind} server exited (${code})\n${stderr}`);
  });
  const { port } = await Promise.race([once(child, 'message', { signal }), failed]).then(
    ([message]) => message as ReadyMessage,
    (error: unknown) => {
      child.kill('SIGKILL');
      throw signal.aborted ? new Error(`${kind} server not ready in time\n${stderr}`) : error;
    },
  );
  const pid = child.pid as number;
  try {
    // Restarts the peak-RSS watermark (VmHWM): the peak covers the load, not seeding.
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // The kernel refuses (rare): the peak then includes seeding.
  }
  return {
    kind,
    origin: `http://127.0.0.1:${port}`,
    cpuSeconds: () => processCpuSeconds(pid),
    idle: () => untilIdle(() => processCpuSeconds(pid)),
    peakRssMb: () => {
      const kb = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      return Number(kb) / 1024;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(force);
    },
  };
}
