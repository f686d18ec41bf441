import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type ReadyMessage, SERVER_SPEC_ENV, type ServerSpec } from './servers/protocol.js';

export type ServerKind = 'api' | 'baseline' | 'limit';

const ENTRIES: Record<ServerKind, string> = {
  api: fileURLToPath(new URL('./servers/api-server.js', import.meta.url)),
  baseline: fileURLToPath(new URL('./servers/baseline-server.js', import.meta.url)),
  limit: fileURLToPath(new URL('./servers/replay-server.js', import.meta.url)),
};

/** A server child as the orchestrator sees it. */
export interface ServerChild {
  kind: ServerKind;
  origin: string;
  seedMs: number;
  /** CPU time (user + system) the child has used so far, in seconds. */
  cpuSeconds(): number;
  /** Restarts the peak-RSS watermark (VmHWM); false where the kernel refuses (then it runs from start-up). */
  resetPeakRss(): boolean;
  /** Peak resident set size since the last reset (or start), in MiB. */
  peakRssMb(): number;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Pins the child to this CPU (`taskset`), so driver and server do not trade cores. */
  cpu?: number;
  /** Writes a V8 CPU profile of the child to `dir/name.cpuprofile` when it stops. */
  cpuProfile?: { dir: string; name: string };
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

/** Utime + stime of a process, in seconds (fields 14 and 15 of /proc/PID/stat, in 1/100 s). */
function procCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The child's `ready` message, or an error when it exits first or takes longer than `ms`. */
async function ready(
  child: ChildProcess,
  ms: number,
  describe: () => string,
): Promise<ReadyMessage> {
  const signal = AbortSignal.timeout(ms);
  const exited = once(child, 'exit', { signal }).then(([code]) => {
    throw new Error(`exited (${code}) ${describe()}`);
  });
  try {
    return (await Promise.race([once(child, 'message', { signal }), exited]))[0] as ReadyMessage;
  } catch (error) {
    throw signal.aborted ? new Error(`not ready in time ${describe()}`) : error;
  }
}

/** Starts a server child, waits until it has seeded its store and listens, and returns it. */
export async function startServerChild(
  kind: ServerKind,
  spec: ServerSpec,
  options: StartOptions = {},
): Promise<ServerChild> {
  hookExit();
  const { cpu, cpuProfile: profile } = options;
  const nodeArgs = [
    ...(profile
      ? [
          '--cpu-prof',
          `--cpu-prof-dir=${profile.dir}`,
          `--cpu-prof-name=${profile.name}.cpuprofile`,
        ]
      : []),
    ENTRIES[kind],
  ];
  const [command, args] =
    cpu === undefined
      ? [process.execPath, nodeArgs]
      : ['taskset', ['-c', String(cpu), process.execPath, ...nodeArgs]];
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
  // Seeding a million pets takes seconds on a busy machine: the bound only catches a hang.
  const { port, seedMs } = await ready(child, 10 * 60_000, () => `${kind} server\n${stderr}`).catch(
    (error: unknown) => {
      child.kill('SIGKILL');
      throw error;
    },
  );
  const pid = child.pid as number;
  return {
    kind,
    origin: `http://127.0.0.1:${port}`,
    seedMs,
    cpuSeconds: () => procCpuSeconds(pid),
    resetPeakRss() {
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, '5');
        return true;
      } catch {
        return false;
      }
    },
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
