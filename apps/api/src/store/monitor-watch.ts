import type {
  ServerHeartbeatFailedEvent,
  ServerHeartbeatStartedEvent,
  ServerHeartbeatSucceededEvent,
} from 'mongodb';

/** What the watch reads from the driver's client: its heartbeat events. */
export interface HeartbeatEvents {
  on(event: 'serverHeartbeatStarted', listener: (e: ServerHeartbeatStartedEvent) => void): unknown;
  on(
    event: 'serverHeartbeatSucceeded',
    listener: (e: ServerHeartbeatSucceededEvent) => void,
  ): unknown;
  on(event: 'serverHeartbeatFailed', listener: (e: ServerHeartbeatFailedEvent) => void): unknown;
}

/** The driver settings that bound how long one server check may take. */
export interface MonitorTimings {
  /** The socket's connect timeout, and a polled check's reply timeout (0: no limit). */
  connectTimeoutMS: number;
  /** How long a server may hold an awaited (streamed) check open. */
  heartbeatFrequencyMS: number;
}

/** Beyond a check's own time limits: a busy machine's scheduling. */
const SLACK_MS = 1_000;

/**
 * Watches the driver's server monitors through their heartbeat events, and tells when a check
 * has outlived every time limit it runs under: the monitor is stalled. A stalled monitor never
 * checks its server again, so a server it last saw as unreachable stays unknown, and every
 * operation fails server selection, although the database is back. Seen with the driver's polled
 * check started on a connection whose socket the server had just closed (the database stopping):
 * the check waits on a socket that is gone, and nothing times it out.
 */
export class MonitorWatch {
  readonly #timings: MonitorTimings;
  readonly #now: () => number;
  /** Each server's check under way: when it started, and whether it is awaited. */
  readonly #checks = new Map<string, { since: number; awaited: boolean }>();

  constructor(timings: MonitorTimings, now: () => number = () => performance.now()) {
    this.#timings = timings;
    this.#now = now;
  }

  /** Listens to `client`'s heartbeats; call it before the client connects. */
  observe(client: HeartbeatEvents): void {
    client.on('serverHeartbeatStarted', (e) => {
      this.#checks.set(e.connectionId, { since: this.#now(), awaited: e.awaited });
    });
    client.on('serverHeartbeatSucceeded', (e) => this.#checks.delete(e.connectionId));
    client.on('serverHeartbeatFailed', (e) => this.#checks.delete(e.connectionId));
  }

  /**
   * The longest a check may take: connecting, then its reply, each within `connectTimeoutMS`,
   * and an awaited check's `heartbeatFrequencyMS` on top. Undefined when the checks have no limit.
   */
  bound(awaited: boolean): number | undefined {
    const { connectTimeoutMS, heartbeatFrequencyMS } = this.#timings;
    if (connectTimeoutMS <= 0) return undefined;
    return 2 * connectTimeoutMS + (awaited ? heartbeatFrequencyMS : 0) + SLACK_MS;
  }

  /** The servers whose check under way has outlived its bound. */
  stalled(): string[] {
    const now = this.#now();
    const found: string[] = [];
    for (const [address, check] of this.#checks) {
      const bound = this.bound(check.awaited);
      if (bound !== undefined && now - check.since > bound) found.push(address);
    }
    return found;
  }

  /** Forgets every check: the client's monitors were replaced. */
  reset(): void {
    this.#checks.clear();
  }
}
