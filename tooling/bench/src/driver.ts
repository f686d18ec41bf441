import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import type { ServerChild } from './children.js';
import { fixedRate } from './open-loop.js';
import type { BenchRequest } from './scenario.js';
import { type LatencySummary, Samples } from './stats.js';

/** One measured run against one server. */
export interface RunResult {
  /** Responses per second. */
  rps: number;
  requests: number;
  seconds: number;
  latencyMs: LatencySummary;
  /** CPU the server used during the run, in cores (1 = one core busy all the time). */
  serverCpu: number;
  /**
   * CPU used during the run by everything but the server and the driver, in cores: other work
   * on a shared machine, which the numbers of that run suffer from.
   */
  otherCpu: number;
  /** CPU the driver (this process) used, in cores: near 1 means the driver may be the limit. */
  driverCpu: number;
}

/** CPU time the whole machine has been busy, in seconds (all cores, from /proc/stat). */
function machineBusySeconds(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
  const [, ...ticks] = line.trim().split(/\s+/).map(Number);
  const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  return (total - idle) / 100;
}

/** Measures the CPU the server, this process and everything else use while `work` runs. */
async function metered<T>(
  server: ServerChild,
  work: () => Promise<T>,
): Promise<{
  value: T;
  seconds: number;
  serverCpu: number;
  otherCpu: number;
  driverCpu: number;
}> {
  const server0 = server.cpuSeconds();
  const machine0 = machineBusySeconds();
  const self0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await work();
  const seconds = (performance.now() - t0) / 1000;
  const serverCpu = server.cpuSeconds() - server0;
  const self = process.cpuUsage(self0);
  const selfCpu = (self.user + self.system) / 1e6;
  const others = Math.max(0, machineBusySeconds() - machine0 - serverCpu - selfCpu);
  return {
    value,
    seconds,
    serverCpu: serverCpu / seconds,
    otherCpu: others / seconds,
    driverCpu: selfCpu / seconds,
  };
}

/** A run that saw an error, a timeout or a status other than the expected one. */
export class RunError extends Error {
  override name = 'RunError';
}

export interface SaturateOptions {
  connections: number;
  pipelining: number;
  durationS: number;
  /**
   * Ends the run after this many responses instead of after `durationS`, with no per-request
   * timeout: the run takes as long as the server needs (smoke runs).
   */
  amount?: number;
  expectStatus: number;
  /** A warm-up run: what it measures is thrown away, so it may be too short to see a response. */
  warmup?: boolean;
}

/** Drives the server as hard as it goes: autocannon, `connections` x `pipelining` in flight. */
export async function saturate(
  server: ServerChild,
  requests: readonly BenchRequest[],
  options: SaturateOptions,
): Promise<RunResult> {
  const latencies = new Samples();
  const metering = await metered(
    server,
    () =>
      new Promise<autocannon.Result>((resolve, reject) => {
        const instance = autocannon(
          {
            url: server.origin,
            connections: options.connections,
            pipelining: options.pipelining,
            ...(options.amount === undefined
              ? { duration: options.durationS, timeout: 30 }
              : // autocannon has no "never": a day stands for it.
                { amount: options.amount, timeout: 86_400 }),
            // Ticks decide when a run ends: fine ticks keep short runs short.
            sampleInt: 100,
            requests: requests.map((r) => ({ ...r })),
          },
          (error, done) => (error ? reject(error) : resolve(done)),
        );
        // autocannon's own latency histogram has 1 ms resolution; these are exact.
        instance.on('response', (_client, _status, _bytes, ms) => latencies.add(ms));
      }),
  );
  const result = metering.value;
  // autocannon drops its connections with requests still in flight; let the server finish them
  // before the next run, so no run starts behind the previous one's leftovers.
  const inFlight = options.connections * options.pipelining;
  const rps = result.requests.total / result.duration;
  await sleep(rps > 0 ? Math.min(5_000, Math.max(100, (inFlight / rps) * 2_000)) : 5_000);
  const statuses = Object.keys(result.statusCodeStats ?? {}).map(Number);
  const unexpected = statuses.filter((status) => status !== options.expectStatus);
  if (result.errors > 0 || result.timeouts > 0 || unexpected.length > 0) {
    throw new RunError(
      `${server.kind} at ${server.origin}: ${result.errors} errors, ${result.timeouts} timeouts, ` +
        `statuses ${JSON.stringify(result.statusCodeStats)} (expected only ${options.expectStatus})`,
    );
  }
  if (result.requests.total === 0 && !options.warmup) {
    throw new RunError(`${server.kind} at ${server.origin}: no response in ${result.duration} s`);
  }
  return {
    rps: result.requests.total / result.duration,
    requests: result.requests.total,
    seconds: result.duration,
    latencyMs: latencies.summary(),
    serverCpu: metering.serverCpu,
    otherCpu: metering.otherCpu,
    driverCpu: metering.driverCpu,
  };
}

export interface SteadyOptions {
  rate: number;
  connections: number;
  durationS: number;
  /** Sends this many requests (at `rate`) instead of `rate * durationS`, with no deadline. */
  amount?: number;
  expectStatus: number;
}

/** Drives the server at a fixed request rate, no pipelining: tail latency below saturation. */
export async function steady(
  server: ServerChild,
  requests: readonly BenchRequest[],
  options: SteadyOptions,
): Promise<RunResult> {
  try {
    const metering = await metered(server, () => fixedRate(server.origin, requests, options));
    const result = metering.value;
    return {
      rps: result.rps,
      requests: result.latencies.count,
      seconds: result.seconds,
      latencyMs: result.latencies.summary(),
      serverCpu: metering.serverCpu,
      otherCpu: metering.otherCpu,
      driverCpu: metering.driverCpu,
    };
  } catch (error) {
    throw new RunError(`${server.kind} at ${server.origin}: ${(error as Error).message}`);
  }
}
