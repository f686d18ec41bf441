import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const KEYS_CLI = fileURLToPath(new URL('../../dist/keys-cli.js', import.meta.url));

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
});

export interface ApiProcess {
  /** Base URL ending in `/v1`. */
  base: string;
  child: ChildProcess;
  /** Everything the process wrote so far, stdout and stderr interleaved. */
  output(): string;
  stdout(): string;
  stderr(): string;
  /**
   * What `find` returns from the stdout so far once it returns something, checked as each chunk
   * arrives; fails if the process ends first.
   */
  untilStdout<T>(find: (stdout: string) => T | undefined): Promise<T>;
}

/**
 * Starts the built service (`dist/main.js`) on a free port with only `env` (and PATH) set,
 * `nodeArgs` before the script; stopped after the file's tests.
 */
export async function startApiProcess(
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<ApiProcess> {
  const child = spawn(process.execPath, [...nodeArgs, MAIN], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk;
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk;
    stderr += chunk;
  });
  const untilStdout = <T>(find: (text: string) => T | undefined) =>
    new Promise<T>((resolve, reject) => {
      const ended = () => {
        child.stdout?.off('data', check);
        reject(new Error(`the API ended first: ${output}`));
      };
      const check = () => {
        const found = find(stdout);
        if (found === undefined) return;
        child.stdout?.off('data', check);
        child.off('close', ended);
        resolve(found);
      };
      child.stdout?.on('data', check);
      child.once('close', ended);
      check();
    });
  // A start waits as long as the test may: a busy CI machine can take minutes to load Node.
  let timer: NodeJS.Timeout | undefined;
  const base = await Promise.race([
    untilStdout((text) => /"url":"([^"]+)","msg":"listening"/.exec(text)?.[1]),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`API did not start: ${output}`)), 240_000);
    }),
  ]).finally(() => clearTimeout(timer));
  return {
    base,
    child,
    output: () => output,
    stdout: () => stdout,
    stderr: () => stderr,
    untilStdout,
  };
}

export interface ScriptRun {
  /** Everything the script wrote to stdout, as UTF-8. */
  stdout: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Runs `script` as an ES module in a fresh Node process (stderr shown), once it has exited. */
export async function runScriptProcess(script: string): Promise<ScriptRun> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  return { stdout: Buffer.concat(chunks).toString('utf8'), code, signal };
}

export interface CliRun {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Runs the built `keys` CLI (`dist/keys-cli.js`) with only `env` (and PATH) set. */
export function runKeysCliProcess(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [KEYS_CLI, ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = (error as { code?: unknown } | null)?.code;
        resolve({ stdout, stderr, exitCode: typeof code === 'number' ? code : error ? -1 : 0 });
      },
    );
  });
}
