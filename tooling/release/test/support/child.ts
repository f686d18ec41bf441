import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** A child process started by a test: what it has written so far, and how to stop it. */
export interface WatchedChild {
  /** Its stdout and stderr together, as they arrived. */
  output(): string;
  /** Stops it (SIGTERM, then SIGKILL if it lingers); at once if it has already exited. */
  stop(): Promise<void>;
}

/** Collects `child`'s output (spawned with stdout and stderr piped) and gives it a stop. */
export function watchChild(child: ChildProcess): WatchedChild {
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk;
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return {
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
