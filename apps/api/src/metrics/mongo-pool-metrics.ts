import type {
  ConnectionCheckedOutEvent,
  ConnectionCheckOutFailedEvent,
  MongoClient,
} from 'mongodb';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Why the driver could not check a connection out of its pool (CMAP's reasons). */
const CHECKOUT_FAILURE_REASONS = ['timeout', 'poolClosed', 'connectionError'] as const;

// Checkouts are immediate while the pool has a free connection; waits show in the upper buckets.
const CHECKOUT_BUCKETS = [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5];

/** What the pool metrics read from the driver: its client emits the CMAP events. */
export type PoolEvents = Pick<MongoClient, 'on'>;

/**
 * The MongoDB driver's connection pools (every server's, summed), from the connection
 * monitoring events (CMAP) its client emits whether or not anyone listens. The gauges are
 * counts of events (created less closed, checked out less checked in, started less ended),
 * read at scrape time; nothing is asked of the driver.
 */
export class MongoPoolMetrics {
  #created = 0;
  #closed = 0;
  #checkoutsStarted = 0;
  #checkoutsEnded = 0;
  #checkedOut = 0;
  #checkedIn = 0;
  readonly #checkoutDuration: Histogram;
  readonly #checkoutFailures: Counter<'reason'>;
  readonly #cleared: Counter<never>;

  constructor(registry: Registry) {
    const registers = [registry];
    const pool = this;
    new Gauge({
      name: 'mongodb_pool_connections',
      help: 'Connections open in the MongoDB driver pools, in use or idle',
      registers,
      collect() {
        this.set(pool.#created - pool.#closed);
      },
    });
    new Gauge({
      name: 'mongodb_pool_connections_in_use',
      help: 'Connections checked out of the MongoDB driver pools by an operation',
      registers,
      collect() {
        this.set(pool.#checkedOut - pool.#checkedIn);
      },
    });
    new Gauge({
      name: 'mongodb_pool_checkouts_waiting',
      help: 'Operations waiting to check a connection out of a MongoDB driver pool',
      registers,
      collect() {
        this.set(pool.#checkoutsStarted - pool.#checkoutsEnded);
      },
    });
    this.#checkoutDuration = new Histogram({
      name: 'mongodb_pool_checkout_duration_seconds',
      help: 'Time an operation waited to check a connection out of a MongoDB driver pool',
      buckets: CHECKOUT_BUCKETS,
      registers,
    });
    this.#checkoutFailures = new Counter({
      name: 'mongodb_pool_checkout_failures_total',
      help: 'Checkouts that failed, by reason (timeout, poolClosed, connectionError)',
      labelNames: ['reason'],
      registers,
    });
    for (const reason of CHECKOUT_FAILURE_REASONS) this.#checkoutFailures.inc({ reason }, 0);
    this.#cleared = new Counter({
      name: 'mongodb_pool_cleared_total',
      help: 'Times the driver cleared a pool (its server was found unreachable or stepped down)',
      registers,
    });
  }

  /** Counts the pool events of `client`; call it before the client connects. */
  observe(client: PoolEvents): void {
    client.on('connectionCreated', () => this.#created++);
    client.on('connectionClosed', () => this.#closed++);
    client.on('connectionCheckOutStarted', () => this.#checkoutsStarted++);
    client.on('connectionCheckedOut', (event: ConnectionCheckedOutEvent) => {
      this.#checkoutsEnded++;
      this.#checkedOut++;
      this.#checkoutDuration.observe(event.durationMS / 1000);
    });
    client.on('connectionCheckOutFailed', (event: ConnectionCheckOutFailedEvent) => {
      this.#checkoutsEnded++;
      this.#checkoutDuration.observe(event.durationMS / 1000);
      this.#checkoutFailures.inc({ reason: event.reason });
    });
    client.on('connectionCheckedIn', () => this.#checkedIn++);
    client.on('connectionPoolCleared', () => this.#cleared.inc());
  }
}
