import { findOnPath } from './find-on-path.js';
import { startProcessServer } from './process-server.js';
import { type StartedServer, type StrategyContext, Unavailable } from './types.js';

/** Start the `mongod` found on PATH on a temp dbpath and a free port of 127.0.0.1. */
export async function startMongod(context: StrategyContext): Promise<StartedServer> {
  const command = await findOnPath('mongod', context.env);
  if (!command) throw new Unavailable('no mongod on PATH');
  const server = await startProcessServer({
    name: 'mongod',
    command,
    env: context.env,
    readyTimeoutMs: context.readyTimeoutMs,
    args: (port, dataDir) => [
      '--dbpath',
      dataDir,
      '--port',
      String(port),
      '--bind_ip',
      '127.0.0.1',
      '--nounixsocket',
      '--quiet',
      '--wiredTigerCacheSizeGB',
      '0.25',
      '--setParameter',
      'diagnosticDataCollectionEnabled=false',
    ],
  });
  return { ...server, description: `mongod (${command})` };
}
