import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { Pool } from 'undici';
import { type ThreadCpu, threadCpu, totalOf } from './process-cpu.js';
import type { BenchRequest } from './scenario.js';
import type { ServerChild } from './servers.js';
import type { RunLength } from './settings.js';
import { round, Samples } from './stats.js';

/** One measured run against one server. */
export interface RunSummary {
  /** Responses per second. */
  rps: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** The server's CPU time (every thread) per response, µs. */
  cpuUsPerRequest: number;
  /** `cpuUsPerRequest` by the kind of thread that spent it (absent without scheduler statistics). */
  threadUsPerRequest?: ThreadCpu;
  /** Cores the server used: at saturation well under 1, the driver set its pace. */
  serverCores: number;
  /** Cores the driver (this process) used. */
  driverCores: number;
}

/** How a run loads a server. */
export interface Load extends RunLength {
  connections: number;
  expectStatus: number;
}

/** A run that saw an error, a timeout or a status other than the expected one. */
export class RunError extends Error {
  override name = 'RunError';
}

/** The server's CPU time so far: by kind of thread where it can tell, and in all, one reading. */
function serverCpuOf(server: ServerChild): { seconds: number; threads?: ThreadCpu } {
  const threads = server.cpuByThread();
  if (threads === undefined) return { seconds: server.cpuSeconds() };
  return { seconds: totalOf(threads), threads };
}

/** Runs `work`, measuring the CPU time of the server and of the driver. */
async function metered(
  server: ServerChild,
  work: () => Promise<{ requests: number; latencies: Samples }>,
): Promise<RunSummary> {
  const [server0, self0, t0] = [serverCpuOf(server), process.cpuUsage(), performance.now()];
  const { requests, latencies } = await work();
  const seconds = (performance.now() - t0) / 1000;
  const server1 = serverCpuOf(server);
  const serverCpu = server1.seconds - server0.seconds;
  const [threads0, threads1] = [server0.threads, server1.threads];
  const self = process.cpuUsage(self0);
  const [p50, p99] = latencies.quantiles(0.5, 0.99) as [number, number];
  return {
    rps: round(requests / seconds, 1),
    requests,
    p50Ms: round(p50, 3),
    p99Ms: round(p99, 3),
    cpuUsPerRequest: round((serverCpu * 1e6) / requests, 2),
    ...(threads0 && threads1
      ? { threadUsPerRequest: perRequest(threads0, threads1, requests) }
      : {}),
    serverCores: round(serverCpu / seconds, 3),
    driverCores: round((self.user + self.system) / 1e6 / seconds, 3),
  };
}

/** The CPU time each kind of thread spent from `before` to `after`, µs per request. */
function perRequest(before: ThreadCpu, after: ThreadCpu, requests: number): ThreadCpu {
  return threadCpu((kind) => round(((after[kind] - before[kind]) * 1e6) / requests, 2));
}

/**
 * Drives the server as hard as it goes: autocannon, `connections` × `pipelining` requests in
 * flight. Afterwards it waits until the server has answered what was still in flight, so no run
 * starts behind another's leftovers.
 */
export async function saturate(
  server: ServerChild,
  requests: readonly BenchRequest[],
  load: Load & { pipelining: number },
): Promise<RunSummary> {
  let done: autocannon.Result | undefined;
  const summary = await metered(server, async () => {
    const latencies = new Samples();
    done = await new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url: server.origin,
          connections: load.connections,
          pipelining: load.pipelining,
          // autocannon has no "never" for its timeout: a day stands for it.
          ...(load.amount === undefined
            ? { duration: load.durationS, timeout: 30 }
            : { amount: load.amount, timeout: 86_400 }),
          sampleInt: 100, // ticks decide when a run ends: fine ticks keep short runs short
          requests: requests.map((r) => ({ ...r })),
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      );
      // autocannon's own histogram has 1 ms resolution; these are exact.
      instance.on('response', (_client, _status, _bytes, ms) => latencies.add(ms));
    });
    return { requests: done.requests.total, latencies };
  });
  await server.idle();
  const result = done as autocannon.Result;
  const statuses = Object.keys(result.statusCodeStats ?? {});
  if (result.errors > 0 || result.timeouts > 0 || statuses.some((s) => +s !== load.expectStatus)) {
    throw new RunError(
      `${server.name}: ${result.errors} errors, ${result.timeouts} timeouts, statuses ` +
        `${JSON.stringify(result.statusCodeStats)} (expected only ${load.expectStatus})`,
    );
  }
  if (summary.requests === 0) throw new RunError(`${server.name}: no response`);
  return summary;
}

/**
 * Drives the server at a fixed rate, open loop (the wrk2 way): request i is due at
 * `start + i / rate`, whether or not earlier ones were answered, and its latency runs from when it
 * was due (or sent, if earlier: timers wake in whole milliseconds), so a stall cannot hide (no
 * coordinated omission). `connections` keep-alive connections (undici), one request in flight on
 * each; a request due while all are busy waits, and that wait counts.
 */
export async function fixedRate(
  server: ServerChild,
  requests: readonly BenchRequest[],
  load: Load & { rate: number },
): Promise<RunSummary> {
  const timeouts =
    load.amount === undefined ? {} : { headersTimeout: 0, bodyTimeout: 0, connectTimeout: 0 };
  const pool = new Pool(server.origin, { connections: load.connections, ...timeouts });
  const send = async ({ method, path, headers, body }: BenchRequest): Promise<void> => {
    const response = await pool.request({ method, path, headers, body });
    await response.body.dump();
    if (response.statusCode !== load.expectStatus) {
      throw new RunError(
        `${server.name}: status ${response.statusCode} (expected ${load.expectStatus})`,
      );
    }
  };
  try {
    // Every connection is open before the clock starts.
    await Promise.all(
      Array.from({ length: load.connections }, () => send(requests[0] as BenchRequest)),
    );
    await server.idle();
    return await metered(server, async () => {
      const total = load.amount ?? Math.max(1, Math.round(load.rate * load.durationS));
      const interval = 1000 / load.rate;
      const latencies = new Samples();
      const sent: Promise<void>[] = [];
      let failed: unknown;
      const start = performance.now();
      for (let i = 0; i < total && failed === undefined; i++) {
        const due = start + i * interval;
        const wait = due - performance.now();
        if (wait >= 1) await sleep(wait);
        const from = Math.min(due, performance.now());
        const request = requests[i % requests.length] as BenchRequest;
        sent.push(
          send(request).then(
            () => latencies.add(performance.now() - from),
            (error: unknown) => {
              failed ??= error;
            },
          ),
        );
      }
      await Promise.all(sent);
      if (failed !== undefined) throw failed;
      return { requests: total, latencies };
    });
  } finally {
    await pool.destroy();
  }
}
