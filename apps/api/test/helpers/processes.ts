import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { type LoggedProcess, type StartedApi, startBuiltApi } from '@animal-store/test-support';
import { afterAll } from 'vitest';

const KEYS_CLI = fileURLToPath(new URL('../../dist/keys-cli.js', import.meta.url));

const children: ChildProcess[] = [];
const started: LoggedProcess[] = [];
afterAll(async () => {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(started.map((api) => api.stop()));
});

export type ApiProcess = StartedApi;

/**
 * Starts the built service (`dist/main.js`) on a free port with only `env` (and PATH) set,
 * `nodeArgs` before the script; stopped after the file's tests.
 */
export async function startApiProcess(
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<ApiProcess> {
  const api = await startBuiltApi(env, { nodeArgs });
  started.push(api);
  return api;
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
