import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ReadyMessage, ServerSpec, StatsMessage, StatsRequest } from './servers/protocol.js';
import { SERVER_SPEC_ENV } from './servers/protocol.js';

export type ServerKind = 'api' | 'baseline' | 'limit' | 'floor';

const ENTRIES: Record<ServerKind, string> = {
  api: fileURLToPath(new URL('./servers/api-server.js', import.meta.url)),
  baseline: fileURLToPath(new URL('./servers/baseline-server.js', import.meta.url)),
  limit: fileURLToPath(new URL('./servers/replay-server.js', import.meta.url)),
  floor: fileURLToPath(new URL('./servers/floor-server.js', import.meta.url)),
};

/** A server child as the orchestrator sees it. */
export interface ServerChild {
  kind: ServerKind;
  pid: number;
  origin: string;
  seedMs: number;
  /** CPU time (user + system) the child has used so far, in seconds. */
  cpuSeconds(): number;
  /**
   * Restarts the peak-RSS watermark (VmHWM) so the peak covers only what follows; false where
   * the kernel refuses, and the peak then runs from start-up.
   */
  resetPeakRss(): boolean;
  /** Peak resident set size since the last reset (or start), in MiB. */
  peakRssMb(): number;
  /** Database commands the child has sent so far, by name (none for the in-memory store). */
  commands(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Pin the child to this CPU (`taskset`), so driver and server do not trade cores. */
  cpu?: number;
  /** Write a V8 CPU profile of the child when it stops (`--cpu-prof`): `dir/name.cpuprofile`. */
  cpuProfile?: { dir: string; name: string };
  /** How long seeding and start-up may take. */
  readyTimeoutMs?: number;
  /** Arguments for the child's script. */
  args?: string[];
}

const live = new Set<ChildProcess>();
let hooked = false;

/** Kills every child still running: the orchestrator never leaves a server behind. */
export function killAllChildren(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', killAllChildren);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      process.stderr.write(`bench: stopped by ${signal}\n`);
      killAllChildren();
      process.exit(130);
    });
  }
}

function procStatusKb(pid: number, field: string): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) : Number.NaN;
}

const CLOCK_TICKS_PER_SECOND = 100;

function procCpuSeconds(pid: number): number {
  // Fields after the parenthesised command name; utime and stime are the 14th and 15th overall.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** Starts a server child, waits until it has seeded its store and listens, and returns it. */
export async function startServerChild(
  kind: ServerKind,
  spec: ServerSpec,
  options: StartOptions = {},
): Promise<ServerChild> {
  hookExit();
  const profile = options.cpuProfile
    ? [
        '--cpu-prof',
        `--cpu-prof-dir=${options.cpuProfile.dir}`,
        `--cpu-prof-name=${options.cpuProfile.name}.cpuprofile`,
      ]
    : [];
  const nodeArgs = [...profile, ENTRIES[kind], ...(options.args ?? [])];
  const [command, args] =
    options.cpu === undefined
      ? [process.execPath, nodeArgs]
      : ['taskset', ['-c', String(options.cpu), process.execPath, ...nodeArgs]];
  // stdout (the JSON access log) goes to /dev/null: written for real, kept nowhere.
  const child = spawn(command, args, {
    env: { ...process.env, [SERVER_SPEC_ENV]: JSON.stringify(spec) },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  live.add(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', () => live.delete(child));

  const ready = await new Promise<ReadyMessage>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${kind} server did not start in time\n${stderr}`)),
      options.readyTimeoutMs ?? 120_000,
    );
    child.once('message', (message: ReadyMessage) => {
      clearTimeout(timer);
      resolve(message);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${kind} server exited (${signal ?? code}) before listening\n${stderr}`));
    });
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  const pid = child.pid as number;
  return {
    kind,
    pid,
    origin: `http://127.0.0.1:${ready.port}`,
    seedMs: ready.seedMs,
    cpuSeconds: () => procCpuSeconds(pid),
    resetPeakRss() {
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, '5');
        return true;
      } catch {
        return false;
      }
    },
    peakRssMb: () => procStatusKb(pid, 'VmHWM') / 1024,
    commands: () =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          child.off('message', onMessage);
          reject(new Error(`${kind} server did not report its stats`));
        }, 10_000);
        const onMessage = (message: StatsMessage) => {
          if (message.type !== 'stats') return;
          clearTimeout(timer);
          child.off('message', onMessage);
          resolve(message.commands);
        };
        child.on('message', onMessage);
        const request: StatsRequest = { type: 'stats' };
        child.send(request);
      }),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(force);
    },
  };
}
