// A long-running child process (a server) whose output is kept, started once a line of its
// output says it is ready, and stopped by the test that started it.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

export interface LoggedProcess {
  /** Everything the process wrote so far, stdout and stderr interleaved. */
  output(): string;
  /** The first match of `ready` in the output, which ended the wait for the start. */
  readonly match: RegExpExecArray;
  /** Stops the process (SIGTERM, then SIGKILL if it lingers) and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `command` and waits until its output matches `ready`. A process that exits first, or
 * never gets ready, is stopped and its output thrown. The wait is long: a busy CI machine can
 * take minutes to load Node.
 */
export async function startLogged(
  command: string,
  args: readonly string[],
  options: { readonly env: NodeJS.ProcessEnv; readonly cwd: string; readonly ready: RegExp },
): Promise<LoggedProcess> {
  const child: ChildProcess = spawn(command, args, {
    env: options.env,
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk;
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  let spawnError: Error | undefined;
  child.on('error', (error) => {
    spawnError = error;
  });
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const stop = async () => {
    if (exited() || child.pid === undefined) return;
    const exit = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exit;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 240_000;
  for (;;) {
    const match = options.ready.exec(output);
    if (match) return { output: () => output, match, stop };
    if (spawnError || exited() || Date.now() > deadline) {
      await stop();
      throw new Error(`${command} ${args.join(' ')} did not start: ${spawnError ?? ''}\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
