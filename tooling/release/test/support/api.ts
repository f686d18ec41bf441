import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { watchChild } from './child.js';
import { REPO_ROOT } from './temp.js';

const MAIN = join(REPO_ROOT, 'apps/api/dist/main.js');

export interface StartedApi {
  /** The base URL, ending in /v1, from the service's `listening` log line. */
  readonly url: string;
  /** Stops the service (SIGTERM, then SIGKILL if it lingers). */
  stop(): Promise<void>;
}

/** Starts the built API as its operators do, on a free port and the in-memory store. */
export async function startApi(apiKey: string): Promise<StartedApi> {
  const child: ChildProcess = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', API_KEYS: apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { output, stop } = watchChild(child);
  // A start waits as long as the test may: a busy CI machine can take minutes to load Node.
  const deadline = Date.now() + 150_000;
  for (;;) {
    const url = /"url":"([^"]+)","msg":"listening"/.exec(output())?.[1];
    if (url) return { url, stop };
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the API did not start:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
