import type { PetStore } from '@animal-store/api';
import type { ChildMessage, ServerSpec } from './protocol.js';
import { openStore } from './store.js';

/** A server a child runs: started on 127.0.0.1, port 0, and stopped on SIGTERM. */
export interface ChildServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The shared life of a server child: open and seed the store, listen, tell the orchestrator,
 * then stop (flushing a `--cpu-prof` profile) on SIGTERM or when the orchestrator goes away.
 */
export async function runChild(
  spec: ServerSpec,
  listen: (store: PetStore) => Promise<ChildServer>,
): Promise<void> {
  const { store, seed, commands } = await openStore(spec.store);
  const seedStarted = performance.now();
  await seed(spec.pets);
  const seedMs = Math.round(performance.now() - seedStarted);
  const server = await listen(store);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close().catch(() => {});
    await store.close().catch(() => {});
    // process.exit (not a signal's default action) lets --cpu-prof write its profile.
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  process.on('disconnect', () => void stop());
  process.on('message', (message: { type?: string }) => {
    if (message.type === 'stats') process.send?.({ type: 'stats', commands: commands() });
  });
  process.send?.({ type: 'ready', port: server.port, seedMs } satisfies ChildMessage);
}

/** Entry-point wrapper: any failure is printed and ends the child with status 1. */
export function main(run: () => Promise<void>): void {
  run().catch((error: unknown) => {
    process.stderr.write(`bench server: ${(error as Error).stack ?? error}\n`);
    process.exit(1);
  });
}
