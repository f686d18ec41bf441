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
  // Settled by the process itself: its "listening" line, or its end. A start waits as long as the
  // test may (a busy CI machine can take minutes to load Node).
  const base = await new Promise<string>((resolve, reject) => {
    const fail = () => {
      clearTimeout(timer);
      reject(new Error(`API did not start: ${output}`));
    };
    const timer = setTimeout(fail, 240_000);
    const listening = () => {
      const url = /"url":"([^"]+)","msg":"listening"/.exec(stdout)?.[1];
      if (!url) return;
      clearTimeout(timer);
      child.stdout?.off('data', listening);
      child.off('close', fail);
      resolve(url);
    };
    child.stdout?.on('data', listening);
    child.once('close', fail);
  });
  return { base, child, output: () => output, stdout: () => stdout, stderr: () => stderr };
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
