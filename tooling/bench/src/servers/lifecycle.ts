import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemoryPetStore } from '@animal-store/api';
import { seedPet } from '../scenario.js';
import { type ReadyMessage, readServerSpec, type ServerSpec } from './protocol.js';

/** A server a child runs: started on 127.0.0.1, port 0, and stopped on SIGTERM. */
export interface ChildServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The life of a server child: read the spec the orchestrator passed, `listen` (which seeds its
 * store with `spec.pets` pets, in-process, not over HTTP: a million take about a second), tell the
 * orchestrator, then stop (flushing a `--cpu-prof` profile) on SIGTERM or when the orchestrator
 * goes away. A failure on the way is printed and ends the child with status 1.
 */
export function runChild(listen: (spec: ServerSpec) => Promise<ChildServer>): void {
  serve(listen).catch((error: unknown) => {
    process.stderr.write(`bench server: ${(error as Error).stack ?? error}\n`);
    process.exit(1);
  });
}

async function serve(listen: Parameters<typeof runChild>[0]): Promise<void> {
  const server = await listen(readServerSpec());
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close().catch(() => {});
    // process.exit (not a signal's default action) lets --cpu-prof write its profile.
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  process.on('disconnect', () => void stop());
  process.send?.({ type: 'ready', port: server.port } satisfies ReadyMessage);
}

/** The API's in-memory store seeded with `pets` pets (`seedPet`), as the API and the baseline use. */
export async function seededStore(pets: number): Promise<MemoryPetStore> {
  const store = new MemoryPetStore();
  for (let n = 1; n <= pets; n++) await store.create(seedPet(n));
  return store;
}

/** A bare `node:http` server on 127.0.0.1 (the baseline and the replay limit). */
export async function listenBare(listener: RequestListener): Promise<ChildServer> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
