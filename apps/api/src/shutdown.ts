import type { Logger } from 'pino';
import type { RunningServer } from './server.js';
import type { PetStore } from './store/pet-store.js';

/** Time a stop may take beyond the request deadline (closing the store) before the process leaves. */
export const SHUTDOWN_MARGIN_MS = 5_000;

export interface ShutdownDeps {
  running: Pick<RunningServer, 'close' | 'drain'>;
  store: Pick<PetStore, 'close'>;
  logger: Logger;
  /** How long `/readyz` says `draining` while requests are still served (`DRAIN_DELAY_MS`). */
  drainDelayMs: number;
  /** Once the listener is closed, how long in-flight requests may take before their sockets are cut. */
  timeoutMs: number;
  marginMs?: number;
  /** Aborted to cut the drain delay short (a second signal). */
  hurry?: AbortSignal;
  /** Ends the process; injected so tests can watch it. */
  exit: (code: number) => void;
}

/** Resolves after `ms`, or at once when `hurry` is aborted. */
function delay(ms: number, hurry?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    hurry?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/**
 * Stops the service: drains for `drainDelayMs` (SIGTERM only: `/readyz` answers 503 while every
 * request is still served, so the balancer stops sending first; Ctrl-C stops at once), closes the
 * listener, lets in-flight requests finish (up to `timeoutMs`), closes the store once the last
 * request has ended, then exits 0; 1 when closing fails or has not finished `marginMs` after the
 * request deadline.
 */
export async function shutDown(deps: ShutdownDeps, signal: string): Promise<void> {
  const { running, store, logger, timeoutMs, exit } = deps;
  running.drain();
  const delayMs = signal === 'SIGTERM' ? deps.drainDelayMs : 0;
  if (delayMs > 0) {
    logger.info({ signal, drainDelayMs: delayMs }, 'draining: /readyz answers 503, still serving');
    await delay(delayMs, deps.hurry);
  }
  logger.info({ signal }, 'shutting down: finishing in-flight requests');
  // A stop must never hang (seen once: a store close that never settled after its database
  // went away): past the request deadline plus a margin, leave anyway.
  const watchdog = setTimeout(
    () => {
      logger.error('shutdown did not finish in time; exiting');
      exit(1);
    },
    timeoutMs + (deps.marginMs ?? SHUTDOWN_MARGIN_MS),
  );
  watchdog.unref();
  try {
    await running.close(timeoutMs);
    await store.close();
  } catch (error) {
    clearTimeout(watchdog);
    logger.error({ err: error }, 'shutdown failed');
    exit(1);
    return;
  }
  clearTimeout(watchdog);
  logger.info('stopped');
  exit(0);
}
