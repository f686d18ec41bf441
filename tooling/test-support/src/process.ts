// Child processes a test starts: their output kept, a wait for a line of it, and a stop that
// sends SIGTERM, then SIGKILL if the process lingers.
import { type ChildProcess, spawn } from 'node:child_process';

/** How long a start may take: a busy CI machine can take minutes to load Node. */
export const START_TIMEOUT_MS = 240_000;

/** How long a stopping process gets between SIGTERM and SIGKILL. */
const STOP_GRACE_MS = 10_000;

const live = new Set<ChildProcess>();

/** Kills (SIGKILL) every child spawnLogged started that still runs. */
export function killAll(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

// Children still running when this process exits are killed, so a crashed run leaves none.
process.once('exit', killAll);

export interface LoggedProcess {
  readonly child: ChildProcess;
  /** Everything it wrote so far, stdout and stderr interleaved (the last `keep` characters). */
  output(): string;
  stdout(): string;
  stderr(): string;
  /**
   * What `find` returns from the stdout so far once it returns something, checked as each chunk
   * arrives; fails if the process exits first.
   */
  untilStdout<T>(find: (stdout: string) => T | undefined): Promise<T>;
  /** The same for the stderr. */
  untilStderr<T>(find: (stderr: string) => T | undefined): Promise<T>;
  /** Its exit code or signal, a spawn error's message, or undefined while it runs. */
  exitStatus(): number | string | undefined;
  /** Resolves once it has exited, or could not be spawned. */
  readonly exited: Promise<void>;
  /** Stops it (SIGTERM, then SIGKILL if it lingers) and waits for its exit; at once if it has exited. */
  stop(): Promise<void>;
}

export interface SpawnLoggedOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** `pipe` keeps a pipe on stdin open, for a child that stops when its stdin closes. */
  readonly stdin?: 'ignore' | 'pipe';
  /** `ignore` sends the stdout to /dev/null: written for real, read by no one (a busy access log). */
  readonly stdout?: 'ignore' | 'pipe';
  /** Keep only the last this many characters of each output (a long-running server). */
  readonly keep?: number;
}

/** Spawns `command` with its output kept; a command that cannot be spawned counts as exited. */
export function spawnLogged(
  command: string,
  args: readonly string[],
  options: SpawnLoggedOptions = {},
): LoggedProcess {
  const child = spawn(command, args, {
    env: options.env ?? process.env,
    cwd: options.cwd,
    stdio: [options.stdin ?? 'ignore', options.stdout ?? 'pipe', 'pipe'],
  });
  live.add(child);
  const keep = options.keep ?? Number.POSITIVE_INFINITY;
  const text = { output: '', stdout: '', stderr: '' };
  const add = (stream: 'stdout' | 'stderr', chunk: string) => {
    text.output = (text.output + chunk).slice(-keep);
    text[stream] = (text[stream] + chunk).slice(-keep);
  };
  // Decoded as a stream: a character split between two chunks stays whole.
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => add('stdout', chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => add('stderr', chunk));
  let status: number | string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('error', (error) => {
      add('stderr', `\n${command}: ${error.message}`);
      status ??= error.message;
      live.delete(child);
      resolve();
    });
    child.once('exit', (code, signal) => {
      status ??= code ?? signal ?? 'unknown';
      live.delete(child);
      resolve();
    });
  });
  const until =
    (stream: 'stdout' | 'stderr') =>
    <T>(find: (text: string) => T | undefined) =>
      new Promise<T>((resolve, reject) => {
        const check = () => {
          const found = find(text[stream]);
          if (found === undefined) return false;
          child[stream]?.off('data', check);
          resolve(found);
          return true;
        };
        if (check()) return;
        child[stream]?.on('data', check);
        void exited.then(() => {
          if (check()) return;
          child[stream]?.off('data', check);
          reject(new Error(`${command} exited (${status}) first; its output:\n${text.output}`));
        });
      });
  return {
    child,
    output: () => text.output,
    stdout: () => text.stdout,
    stderr: () => text.stderr,
    untilStdout: until('stdout'),
    untilStderr: until('stderr'),
    exitStatus: () => status,
    exited,
    async stop() {
      if (status !== undefined) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Waits until `ready` gives a value (polled). A process that exits first, or is not ready
 * within `timeoutMs`, is stopped and its output thrown; `what` names it in the message.
 */
export async function waitUntil<T>(
  started: LoggedProcess,
  what: string,
  ready: () => T | undefined | Promise<T | undefined>,
  timeoutMs = START_TIMEOUT_MS,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await ready();
    if (value !== undefined) return value;
    const status = started.exitStatus();
    if (status !== undefined || Date.now() > deadline) {
      await started.stop();
      const why =
        status === undefined
          ? `was not ready within ${timeoutMs} ms`
          : `exited (${status}) before it was ready`;
      throw new Error(`${what} ${why}; its output:\n${started.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface StartedProcess extends LoggedProcess {
  /** The first match of `ready` in the output, which ended the wait for the start. */
  readonly match: RegExpExecArray;
}

/**
 * Starts `command` and waits until its output matches `ready`. A process that exits first, or
 * is not ready within START_TIMEOUT_MS, is stopped and its output thrown.
 */
export async function startLogged(
  command: string,
  args: readonly string[],
  options: SpawnLoggedOptions & { readonly ready: RegExp },
): Promise<StartedProcess> {
  const started = spawnLogged(command, args, options);
  const match = await waitUntil(
    started,
    `${command} ${args.join(' ')}`,
    () => options.ready.exec(started.output()) ?? undefined,
  );
  return { ...started, match };
}

/** What a finished child process wrote and how it exited. */
export interface Finished {
  readonly stdout: string;
  readonly stderr: string;
  /** Its exit code; null when a signal ended it. */
  readonly exitCode: number | null;
  /** The signal that ended it, or null. */
  readonly signal: NodeJS.Signals | null;
}

/**
 * Runs `command` to its end without blocking the event loop (servers this process started keep
 * being read) and collects its output; stdin is empty. Rejects only when it cannot be spawned.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  options: { readonly env?: NodeJS.ProcessEnv; readonly cwd?: string } = {},
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    // Decoded as a stream: a character split between two chunks stays whole.
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (exitCode, signal) => resolve({ stdout, stderr, exitCode, signal }));
  });
}
