import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import type { BenchRequest } from './scenario.js';
import type { RunLength } from './settings.js';
import { Samples } from './stats.js';

/** `amount` (smoke runs): this many requests instead of `rate * durationS`, with no timeout. */
export interface FixedRateOptions extends RunLength {
  rate: number;
  connections: number;
  expectStatus: number;
}

/**
 * Open-loop load at a fixed rate (the wrk2 way): request i is due at `start + i / rate`, whether
 * or not earlier ones have been answered, and its latency runs from when it was due (or sent, if
 * earlier) to the end of its body, so a stalled server cannot hide its stall (no coordinated
 * omission). `connections` keep-alive connections (undici), one request in flight on each; a
 * request due while all are busy waits, and that wait counts. (autocannon's own rate limit lets
 * each connection send its per-second quota back to back, which measures bursts instead.)
 */
export async function fixedRate(
  origin: string,
  requests: readonly BenchRequest[],
  options: FixedRateOptions,
): Promise<{ requests: number; latencies: Samples }> {
  const timeouts =
    options.amount === undefined ? {} : { headersTimeout: 0, bodyTimeout: 0, connectTimeout: 0 };
  const pool = new Pool(origin, { connections: options.connections, pipelining: 1, ...timeouts });
  const send = async (request: BenchRequest): Promise<void> => {
    const { method, path, headers, body } = request;
    const response = await pool.request({ method, path, headers, body });
    await response.body.dump();
    if (response.statusCode !== options.expectStatus) {
      throw new Error(
        `unexpected status ${response.statusCode} (expected ${options.expectStatus})`,
      );
    }
  };
  try {
    // Every connection is open before the clock starts.
    const first = requests[0] as BenchRequest;
    await Promise.all(Array.from({ length: options.connections }, () => send(first)));
    const total = options.amount ?? Math.max(1, Math.round(options.rate * options.durationS));
    const interval = 1000 / options.rate;
    const latencies = new Samples();
    const sent: Promise<void>[] = [];
    let failed: unknown;
    const start = performance.now();
    for (let i = 0; i < total && failed === undefined; i++) {
      const due = start + i * interval;
      const wait = due - performance.now();
      if (wait >= 1) await sleep(wait);
      // Timers wake in whole milliseconds: a request may leave up to 1 ms before it is due, and
      // then its latency runs from when it left (never negative).
      const from = Math.min(due, performance.now());
      const answered = send(requests[i % requests.length] as BenchRequest).then(
        () => latencies.add(performance.now() - from),
        (error: unknown) => {
          failed ??= error;
        },
      );
      sent.push(answered);
    }
    await Promise.all(sent);
    if (failed !== undefined) throw failed;
    return { requests: total, latencies };
  } finally {
    await pool.destroy();
  }
}
