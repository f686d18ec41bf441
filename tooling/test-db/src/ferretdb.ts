import { type GoTool, goToolBinary } from './go-build.js';
import { startProcessServer } from './process-server.js';
import type { StartedServer, StrategyContext } from './types.js';

/** The FerretDB release that tooling/test-db/ferretdb/go.mod pins. */
export const FERRETDB_VERSION = 'v1.24.2';

const FERRETDB: GoTool = { name: 'ferretdb', title: 'FerretDB', version: FERRETDB_VERSION };

/** Start FerretDB with SQLite on a temp dir and a free port of 127.0.0.1, building it first if needed. */
export async function startFerretdb(context: StrategyContext): Promise<StartedServer> {
  const binary = await ferretdbBinary(context);
  const server = await startProcessServer({
    name: 'ferretdb',
    command: binary,
    env: context.env,
    stdinPipe: true,
    readyTimeoutMs: context.readyTimeoutMs,
    args: (port, dataDir) => [
      `--listen-addr=127.0.0.1:${port}`,
      `--sqlite-url=file:${dataDir}/`,
      '--stop-on-stdin-close',
    ],
  });
  return { ...server, description: `FerretDB ${FERRETDB_VERSION} (SQLite)` };
}

/**
 * Path of the FerretDB binary built from tooling/test-db/ferretdb, built once with `go build` into
 * the user cache dir (guarded by a lock file so parallel workers build it once) and reused after.
 */
export function ferretdbBinary(context: Pick<StrategyContext, 'env' | 'log'>): Promise<string> {
  return goToolBinary(FERRETDB, context);
}
