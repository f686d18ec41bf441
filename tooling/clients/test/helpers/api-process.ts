import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

// The API as its users run it: its built entry point, configured through the environment.
const MAIN = fileURLToPath(new URL('./main.js', import.meta.resolve('@animal-store/api')));

export interface ApiProcess {
  /** Base address, ending with `/v1`. */
  base: string;
  apiKey: string;
  /** Everything the process wrote, for a failing test's message. */
  output(): string;
}

/**
 * Starts the API on 127.0.0.1 with a fresh key and no rate limit, plus `env`; it is stopped
 * after the file's tests. Resolves once it prints its "listening" line.
 */
export async function startApiProcess(env: Record<string, string> = {}): Promise<ApiProcess> {
  const apiKey = `clients_${randomBytes(16).toString('hex')}`;
  const child: ChildProcess = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      API_KEYS: apiKey,
      HOST: '127.0.0.1',
      PORT: '0',
      RATE_LIMIT_REQUESTS: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  afterAll(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  });
  let output = '';
  const base = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const url = /"url":"([^"]+)"/.exec(output)?.[1];
      if (url) resolve(url);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code, signal) =>
      reject(new Error(`the API exited (${code ?? signal}) before listening:\n${output}`)),
    );
    child.on('error', reject);
  });
  return { base, apiKey, output: () => output };
}
