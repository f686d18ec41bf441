import type { Logger } from 'pino';
import { type Clock, systemClock } from './clock.js';
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
    if (hurry?.aborted) return resolve();
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

/**
 * How soon the same signal again counts as a copy of the first. A runner that passes signals on
 * to its child (`pnpm start`, `npm start`) gets its own copy of a signal sent to the whole process
 * group (systemd's default, a terminal's Ctrl-C, most process managers) and sends it on within
 * milliseconds; a person who means a second signal takes longer than this.
 */
export const SIGNAL_COPY_WINDOW_MS = 1_000;

/** What a signal means to a stopping process (`StopSignals.receive`). */
export type SignalMeaning =
  /** The first: the stop starts. */
  | 'stop'
  /** The same signal again within the copy window: a copy a runner passed on; the stop goes on. */
  | 'copy'
  /** A deliberate second signal: the drain delay is cut short. */
  | 'hurry'
  /** After the hurry: nothing more to do. */
  | 'ignored';

/**
 * Tells the signals a stopping process gets apart: the first starts the stop, the same signal again
 * within `SIGNAL_COPY_WINDOW_MS` is a runner's copy of it (the drain goes on), and any other signal
 * (Ctrl-C during a SIGTERM drain, the second Ctrl-C pnpm turns into a SIGTERM), or the same one
 * later, is a person's second signal.
 */
export class StopSignals {
  #first: { signal: string; at: number } | undefined;
  #hurried = false;

  constructor(
    private readonly clock: Clock = systemClock,
    private readonly copyWindowMs = SIGNAL_COPY_WINDOW_MS,
  ) {}

  receive(signal: string): SignalMeaning {
    const now = this.clock();
    if (this.#first === undefined) {
      this.#first = { signal, at: now };
      return 'stop';
    }
    if (this.#hurried) return 'ignored';
    if (signal === this.#first.signal && now - this.#first.at < this.copyWindowMs) return 'copy';
    this.#hurried = true;
    return 'hurry';
  }
}

/** What `stopOnSignals` listens on: `process`, or an emitter standing in for it in tests. */
export interface SignalSource {
  on(signal: 'SIGTERM' | 'SIGINT', listener: () => void): unknown;
}

/**
 * Stops the process on SIGTERM or SIGINT: `stop(signal, hurry)` on the first, `hurry` aborted on
 * a deliberate second; a runner's copy of the first is logged and otherwise ignored.
 */
export function stopOnSignals(
  source: SignalSource,
  logger: Logger,
  stop: (signal: string, hurry: AbortSignal) => void,
  signals = new StopSignals(),
): void {
  const hurry = new AbortController();
  const receive = (signal: 'SIGTERM' | 'SIGINT') => {
    switch (signals.receive(signal)) {
      case 'stop':
        stop(signal, hurry.signal);
        return;
      case 'copy':
        logger.info(
          { signal },
          'signal again at once: a copy passed on by a runner; the stop goes on',
        );
        return;
      case 'hurry':
        logger.info({ signal }, 'second signal: the drain is cut short');
        hurry.abort();
        return;
      case 'ignored':
        return;
    }
  };
  source.on('SIGTERM', () => receive('SIGTERM'));
  source.on('SIGINT', () => receive('SIGINT'));
}
