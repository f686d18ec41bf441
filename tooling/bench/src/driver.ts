import autocannon from 'autocannon';
import type { ServerChild } from './children.js';
import { type FixedRateOptions, fixedRate } from './open-loop.js';
import type { BenchRequest } from './scenario.js';
import { median, round, Samples } from './stats.js';

/** One measured run against one server (or the medians of several: `medianOf`). */
export interface RunSummary {
  /** Responses per second. */
  rps: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  p999Ms: number;
  /** Server CPU time per response, µs, which a busy machine disturbs far less than req/s. */
  cpuUsPerRequest: number;
  /** Cores the driver (this process) used: near 1, the driver may be the limit. */
  driverCpu: number;
  /** Cores the server used: at saturation well under 1, something else (the driver) set its pace. */
  serverCores: number;
}

/** The p50, p99 and p99.9 of `latencies`, as a run summary carries them. */
export function latencyQuantiles(
  latencies: Samples,
): Pick<RunSummary, 'p50Ms' | 'p99Ms' | 'p999Ms'> {
  const quantiles = latencies.quantiles(0.5, 0.99, 0.999).map((ms) => round(ms, 3));
  const [p50Ms, p99Ms, p999Ms] = quantiles as [number, number, number];
  return { p50Ms, p99Ms, p999Ms };
}

/** Medians, field by field. */
export function medianOf(runs: readonly RunSummary[]): RunSummary {
  const fields = Object.keys(runs[0] as RunSummary) as (keyof RunSummary)[];
  return Object.fromEntries(
    fields.map((field) => [field, round(median(runs.map((run) => run[field])), 3)]),
  ) as unknown as RunSummary;
}

/** Runs `work`, measuring the CPU time of the server and of the driver. */
async function metered(
  server: ServerChild,
  work: () => Promise<{ requests: number; latencies: Samples }>,
): Promise<RunSummary> {
  const server0 = server.cpuSeconds();
  const self0 = process.cpuUsage();
  const t0 = performance.now();
  const { requests, latencies } = await work();
  const seconds = (performance.now() - t0) / 1000;
  const serverCpu = server.cpuSeconds() - server0;
  const self = process.cpuUsage(self0);
  return {
    rps: round(requests / seconds, 1),
    requests,
    ...latencyQuantiles(latencies),
    cpuUsPerRequest: round((serverCpu * 1e6) / requests, 1),
    driverCpu: round((self.user + self.system) / 1e6 / seconds, 3),
    serverCores: round(serverCpu / seconds, 3),
  };
}

/** A run that saw an error, a timeout or a status other than the expected one. */
export class RunError extends Error {
  override name = 'RunError';
}

export interface SaturateOptions extends Omit<FixedRateOptions, 'rate'> {
  pipelining: number;
  /** A warm-up: what it measures is thrown away, so it may see no response at all. */
  warmup?: boolean;
}

/** Drives the server as hard as it goes: autocannon, `connections` x `pipelining` in flight. */
export async function saturate(
  server: ServerChild,
  requests: readonly BenchRequest[],
  options: SaturateOptions,
): Promise<RunSummary> {
  let result: autocannon.Result | undefined;
  const summary = await metered(server, async () => {
    const latencies = new Samples();
    result = await new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url: server.origin,
          connections: options.connections,
          pipelining: options.pipelining,
          // autocannon has no "never" for its timeout: a day stands for it.
          ...(options.amount === undefined
            ? { duration: options.durationS, timeout: 30 }
            : { amount: options.amount, timeout: 86_400 }),
          sampleInt: 100, // ticks decide when a run ends: fine ticks keep short runs short
          requests: requests.map((r) => ({ ...r })),
        },
        (error, done) => (error ? reject(error) : resolve(done)),
      );
      // autocannon's own histogram has 1 ms resolution; these are exact.
      instance.on('response', (_client, _status, _bytes, ms) => latencies.add(ms));
    });
    return { requests: result.requests.total, latencies };
  });
  const done = result as autocannon.Result;
  // autocannon leaves requests in flight when it stops: no run starts before the server is done
  // with them, so none starts behind the previous one's leftovers.
  await server.idle();
  const unexpected = Object.keys(done.statusCodeStats ?? {}).filter(
    (status) => Number(status) !== options.expectStatus,
  );
  if (done.errors > 0 || done.timeouts > 0 || unexpected.length > 0) {
    throw new RunError(
      `${server.kind} at ${server.origin}: ${done.errors} errors, ${done.timeouts} timeouts, ` +
        `statuses ${JSON.stringify(done.statusCodeStats)} (expected only ${options.expectStatus})`,
    );
  }
  if (summary.requests === 0 && !options.warmup) {
    throw new RunError(`${server.kind} at ${server.origin}: no response in ${done.duration} s`);
  }
  return summary;
}

/**
 * Drives the server at a fixed request rate, no pipelining: latency below saturation. Every
 * latency is also added to `pool`, when given, for quantiles over several runs.
 */
export async function steady(
  server: ServerChild,
  requests: readonly BenchRequest[],
  options: FixedRateOptions,
  pool?: Samples,
): Promise<RunSummary> {
  try {
    return await metered(server, async () => {
      const run = await fixedRate(server.origin, requests, options);
      pool?.addAll(run.latencies);
      return run;
    });
  } catch (error) {
    throw new RunError(`${server.kind} at ${server.origin}: ${(error as Error).message}`);
  }
}
