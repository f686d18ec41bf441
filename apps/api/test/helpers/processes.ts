import { fileURLToPath } from 'node:url';
import {
  type Finished,
  runProcess,
  type StartedApi,
  startBuiltApi,
} from '@animal-store/test-support';
import { stopAfterFile } from './file-cleanup.js';

const KEYS_CLI = fileURLToPath(new URL('../../dist/keys-cli.js', import.meta.url));

export type ApiProcess = StartedApi;

/**
 * A store deadline no busy machine reaches: the test database slows down with the machine, and a
 * test that is not about the deadline must not see its 503. A test about it sets its own.
 */
export const GENEROUS_STORE_TIMEOUT = { STORE_TIMEOUT_MS: '120000' };

/**
 * Starts the built service (`dist/main.js`) on a free port with only `env` (and PATH) set, and a
 * generous store deadline unless `env` gives one; `nodeArgs` before the script; stopped after the
 * file's tests.
 */
export async function startApiProcess(
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<ApiProcess> {
  const api = await startBuiltApi({ ...GENEROUS_STORE_TIMEOUT, ...env }, { nodeArgs });
  stopAfterFile(() => api.stop());
  return api;
}

/** Runs `script` as an ES module in a fresh Node process, once it has exited. */
export function runScriptProcess(script: string): Promise<Finished> {
  return runProcess(process.execPath, ['--input-type=module', '-e', script]);
}

/** Runs the built `keys` CLI (`dist/keys-cli.js`) with only `env` (and PATH) set. */
export function runKeysCliProcess(args: string[], env: Record<string, string>): Promise<Finished> {
  return runProcess(process.execPath, [KEYS_CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
  });
}
