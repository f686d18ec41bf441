import { Gauge, type Registry } from 'prom-client';
import type { PetStore } from './store/pet-store.js';

/** Whether the database answered the last check. */
export type DatabaseState = 'up' | 'down';

/** How often the database is checked while the process runs. */
export const DATABASE_CHECK_MS = 5_000;

/**
 * What `/readyz` reports: whether this process should get traffic (it is not draining) and the
 * database's state as last checked. The database's state never makes the process unready: with
 * the database down every process is in the same state, and a balancer that took them all out
 * would answer its own error page instead of the API's `503` with `Retry-After`.
 */
export class Readiness {
  draining = false;
  database: DatabaseState = 'up';
  readonly #store: Pick<PetStore, 'ping'>;
  readonly #gauge: Gauge | undefined;
  #timer: NodeJS.Timeout | undefined;

  /** With `registry`, the state is also the gauge `animal_store_database_up` (1 up, 0 down). */
  constructor(store: Pick<PetStore, 'ping'>, registry?: Registry) {
    this.#store = store;
    this.#gauge =
      registry &&
      new Gauge({
        name: 'animal_store_database_up',
        help: 'Whether the database answered its last check: 1 up, 0 down',
        registers: [registry],
      });
  }

  /** Checks the database once now, then every `intervalMs` until `stop()`. */
  async start(intervalMs = DATABASE_CHECK_MS): Promise<void> {
    await this.check();
    let checking = false;
    this.#timer = setInterval(() => {
      // A check slower than the interval is not doubled up.
      if (checking) return;
      checking = true;
      void this.check().finally(() => {
        checking = false;
      });
    }, intervalMs);
    this.#timer.unref();
  }

  /** Pings the store and records the outcome. */
  async check(): Promise<void> {
    try {
      await this.#store.ping();
      this.database = 'up';
    } catch {
      this.database = 'down';
    }
    this.#gauge?.set(this.database === 'up' ? 1 : 0);
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
