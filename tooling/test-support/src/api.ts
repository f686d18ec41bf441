import { fileURLToPath } from 'node:url';
import { type LoggedProcess, startLogged } from './process.js';

/** The API as its operators run it: its built entry point (a test script builds it first). */
export const API_MAIN = fileURLToPath(new URL('../../../apps/api/dist/main.js', import.meta.url));

export interface StartedApi extends LoggedProcess {
  /** Its base URL, ending in `/v1`, from its `listening` log line. */
  readonly base: string;
}

export interface StartApiOptions {
  /** Node flags before the script. */
  readonly nodeArgs?: readonly string[];
  /** The Node to run it on; the one running the test by default. */
  readonly node?: string;
}

/**
 * Starts the built API on 127.0.0.1 and a free port with only `env` (and PATH) set, and waits for
 * its `listening` line. The caller stops it.
 */
export async function startBuiltApi(
  env: Record<string, string> = {},
  options: StartApiOptions = {},
): Promise<StartedApi> {
  const started = await startLogged(
    options.node ?? process.execPath,
    [...(options.nodeArgs ?? []), API_MAIN],
    {
      env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
      ready: /"url":"([^"]+)","msg":"listening"/,
    },
  );
  return { ...started, base: started.match[1] as string };
}
