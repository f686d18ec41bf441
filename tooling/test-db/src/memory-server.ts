import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StartedServer, StrategyContext } from './types.js';
import { Unavailable } from './types.js';

const START_TIMEOUT_MS = 5 * 60_000;

/**
 * Start mongodb-memory-server (imported lazily: it is optional). It downloads a real mongod on first
 * use, so it works only where the internet is reachable.
 */
export async function startMemoryServer(_context: StrategyContext): Promise<StartedServer> {
  let module: typeof import('mongodb-memory-server');
  try {
    module = await import('mongodb-memory-server');
  } catch (error) {
    throw new Unavailable(`mongodb-memory-server is not installed (${(error as Error).message})`);
  }
  // Its data folder is made and removed here: the one mongodb-memory-server makes itself stays
  // behind when no mongod can be had (the folder comes before the download, its cleanup after).
  const dbPath = await mkdtemp(join(tmpdir(), 'mongo-mem-'));
  const removeData = () => rm(dbPath, { recursive: true, force: true });
  const server = new module.MongoMemoryServer({ instance: { ip: '127.0.0.1', dbPath } });
  try {
    await Promise.race([
      server.start(),
      sleep(START_TIMEOUT_MS, undefined, { ref: false }).then(() => {
        throw new Error(`did not start within ${START_TIMEOUT_MS / 1000} s`);
      }),
    ]);
  } catch (error) {
    await server.stop().catch(() => {});
    await removeData();
    throw new Error(`mongodb-memory-server could not start a mongod: ${(error as Error).message}`);
  }
  return {
    uri: server.getUri(),
    description: 'mongodb-memory-server',
    stop: async () => {
      await server.stop();
      await removeData();
    },
    outage: {
      down: async () => {
        await server.stop({ doCleanup: false });
      },
      up: async () => {
        await server.start(true);
      },
    },
  };
}
